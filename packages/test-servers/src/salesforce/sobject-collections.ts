import { SalesforceApiError } from './errors';
import { fieldsOf, insertRecord, removeRecord, schemaOf, type RecordRejection, type SaveResult } from './dml';
import type { Org } from './org';

/**
 * `POST /services/data/vXX.X/composite/sobjects`: sObject Collections create, up to 200 records
 * (each with `attributes.type`, no Id) in one request, created in order. The answer is a
 * SaveResult per record, in the request's order: `{ id, success: true, errors: [] }` or
 * `{ success: false, errors: [{ statusCode, message, fields }] }`. With `allOrNone` one failure
 * takes back every record of the request, the others failing with
 * ALL_OR_NONE_OPERATION_ROLLED_BACK. A request that is not one (no records, more than 200, an
 * unknown object or field) is a 400 in Salesforce's REST error shape.
 */

export const COLLECTION_MAX = 200;

export function createCollection(
  org: Org,
  body: string,
  rejections: readonly RecordRejection[],
): SaveResult[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new SalesforceApiError(400, 'JSON_PARSER_ERROR', 'The request body is not valid JSON.');
  }
  const { allOrNone = false, records } = (parsed ?? {}) as { allOrNone?: unknown; records?: unknown };
  if (!Array.isArray(records) || records.length === 0) {
    throw new SalesforceApiError(400, 'INVALID_FIELD', 'Field records is required and cannot be empty.');
  }
  if (records.length > COLLECTION_MAX) {
    throw new SalesforceApiError(
      400,
      'EXCEEDED_ID_LIMIT',
      `record limit reached. cannot submit more than ${COLLECTION_MAX} records into this call`,
    );
  }
  // Every record's object and fields first: an unknown one refuses the request as a whole.
  const items = records.map((item: unknown) => {
    const { attributes, ...fields } = (item ?? {}) as { attributes?: { type?: unknown } } & Record<
      string,
      unknown
    >;
    const schema = schemaOf(org, attributes?.type);
    fieldsOf(schema, Object.keys(fields));
    return { schema, fields };
  });
  const results = items.map(({ schema, fields }) => insertRecord(org, schema, fields, rejections));
  if (allOrNone === true && results.some((r) => !r.success)) {
    results.forEach((r, i) => {
      if (r.success) removeRecord(org, items[i]!.schema, r.id);
    });
    return results.map((r) =>
      r.success
        ? {
            success: false,
            errors: [
              {
                statusCode: 'ALL_OR_NONE_OPERATION_ROLLED_BACK',
                message:
                  'Record rolled back because not all records were valid and the request was using AllOrNone header',
                fields: [],
              },
            ],
          }
        : r,
    );
  }
  return results;
}
