import type { ServerResponse } from 'node:http';
import { csvLine, parseCsv } from './csv';
import { fieldsOf, fromCsv, insertRecord, schemaOf, type RecordRejection } from './dml';
import { SalesforceApiError } from './errors';
import { sendEmpty, sendJson, sendText, type RecordedSalesforceRequest } from './http';
import { salesforceId } from './ids';
import type { Org } from './org';

/**
 * Bulk API 2.0 ingest jobs under `/services/data/vXX.X/jobs/ingest`, insert only:
 *
 * - `POST` creates a job (`{ object, operation, contentType, lineEnding, columnDelimiter }`),
 *   answered with its info in state `Open`;
 * - `PUT <id>/batches` takes the job's CSV (one upload per job), 201 with no body;
 * - `PATCH <id>` with `{ state: 'UploadComplete' }` closes it (or `Aborted` aborts it);
 * - `GET <id>` is its info: `UploadComplete`, then `InProgress` for as many polls as the server
 *   is told, then `JobComplete` (the rows are created then) with `numberRecordsProcessed` and
 *   `numberRecordsFailed`, or `Failed` with an `errorMessage` (a header naming a field the object
 *   does not have, no data);
 * - `GET <id>/successfulResults`, `failedResults` and `unprocessedrecords` are CSV files:
 *   `"sf__Id","sf__Created"` or `"sf__Id","sf__Error"` (`CODE:message:fields`), then the row as
 *   uploaded. As Salesforce warns, their order is not the upload's: these come last row first;
 * - `DELETE <id>` deletes it (204).
 */

export type IngestJob = {
  id: string;
  object: string;
  operation: string;
  state: 'Open' | 'UploadComplete' | 'InProgress' | 'JobComplete' | 'Failed' | 'Aborted';
  createdDate: string;
  apiVersion: number;
  lineEnding: string;
  columnDelimiter: string;
  data?: string;
  /** Polls answered since the job was closed. */
  polls: number;
  errorMessage?: string;
  header: string[];
  successful: { id: string; row: string[] }[];
  failed: { error: string; row: string[] }[];
  unprocessed: string[][];
};

export type BulkIngestOptions = {
  org: () => Org;
  rejections: () => readonly RecordRejection[];
  jobs: Map<string, IngestJob>;
  /** How many polls of a closed job answer InProgress before it completes. */
  pollsInProgress: number;
  userId: string;
};

const delimiters: Record<string, string> = {
  COMMA: ',',
  SEMICOLON: ';',
  TAB: '\t',
  PIPE: '|',
  CARET: '^',
  BACKQUOTE: '`',
};
const stamp = () => new Date().toISOString().replace('Z', '+0000');

export function bulkIngest({ org, rejections, jobs, pollsInProgress, userId }: BulkIngestOptions) {
  let created = 0;

  const info = (job: IngestJob, version: string) => ({
    id: job.id,
    operation: job.operation,
    object: job.object,
    createdById: userId,
    createdDate: job.createdDate,
    systemModstamp: stamp(),
    state: job.state,
    concurrencyMode: 'Parallel',
    contentType: 'CSV',
    apiVersion: job.apiVersion,
    jobType: 'V2Ingest',
    contentUrl: `services/data/v${version}/jobs/ingest/${job.id}/batches`,
    lineEnding: job.lineEnding,
    columnDelimiter: job.columnDelimiter,
    numberRecordsProcessed: job.successful.length + job.failed.length,
    numberRecordsFailed: job.failed.length,
    retries: 0,
    totalProcessingTime: 0,
    apiActiveProcessingTime: 0,
    apexProcessingTime: 0,
    ...(job.errorMessage ? { errorMessage: job.errorMessage } : {}),
  });

  const fail = (job: IngestJob, message: string) => {
    job.state = 'Failed';
    job.errorMessage = message;
  };

  /** Creates the job's rows, each on its own; a bad header fails the job. */
  const run = (job: IngestJob) => {
    if (job.data === undefined) return fail(job, 'No data was uploaded to this job.');
    const rows = parseCsv(job.data, delimiters[job.columnDelimiter] ?? ',');
    const [header = [], ...body] = rows;
    job.header = header;
    const schema = schemaOf(org(), job.object);
    let fields;
    try {
      fields = fieldsOf(schema, header);
    } catch (error) {
      const unknown = header.find((name) => !schema.byName.has(name.toLowerCase()));
      if (error instanceof SalesforceApiError)
        return fail(job, `InvalidBatch : Field name not found : ${unknown}`);
      throw error;
    }
    for (const row of body) {
      const values: Record<string, unknown> = {};
      fields.forEach((field, i) => {
        const text = row[i] ?? '';
        if (text !== '') values[field.name] = fromCsv(field, text);
      });
      const result = insertRecord(org(), schema, values, rejections());
      if (result.success) job.successful.push({ id: result.id, row });
      else {
        const [e] = result.errors;
        job.failed.push({ error: `${e!.statusCode}:${e!.message}:${e!.fields.join(',') || '--'}`, row });
      }
    }
    job.state = 'JobComplete';
  };

  const jobOf = (id: string) => {
    const job = jobs.get(id);
    if (!job) throw new SalesforceApiError(404, 'NOT_FOUND', 'The requested resource does not exist');
    return job;
  };
  const invalidState = (job: IngestJob) =>
    new SalesforceApiError(409, 'INVALIDJOBSTATE', `The job is in state ${job.state}.`);

  const create = (version: string, body: string) => {
    let options: Record<string, unknown>;
    try {
      options = JSON.parse(body) as Record<string, unknown>;
    } catch {
      throw new SalesforceApiError(400, 'JSON_PARSER_ERROR', 'The request body is not valid JSON.');
    }
    if (options.operation !== 'insert') {
      throw new SalesforceApiError(
        400,
        'INVALIDJOB',
        `The test server creates insert jobs only, not ${String(options.operation)}.`,
      );
    }
    if (options.contentType !== undefined && options.contentType !== 'CSV') {
      throw new SalesforceApiError(400, 'INVALIDJOB', 'contentType must be CSV.');
    }
    const schema = schemaOf(org(), options.object);
    created += 1;
    const job: IngestJob = {
      id: salesforceId('750', created),
      object: schema.name,
      operation: 'insert',
      state: 'Open',
      createdDate: stamp(),
      apiVersion: Number(version),
      lineEnding: options.lineEnding === 'CRLF' ? 'CRLF' : 'LF',
      columnDelimiter: typeof options.columnDelimiter === 'string' ? options.columnDelimiter : 'COMMA',
      polls: 0,
      header: [],
      successful: [],
      failed: [],
      unprocessed: [],
    };
    jobs.set(job.id, job);
    return info(job, version);
  };

  const results = (job: IngestJob, which: string) => {
    if (job.state !== 'JobComplete' && job.state !== 'Failed' && job.state !== 'Aborted')
      throw invalidState(job);
    // Salesforce does not keep the upload's order; last row first shows a client that relies on it.
    if (which === 'successfulResults') {
      const rows = job.successful.map((s) => csvLine([s.id, 'true', ...s.row])).reverse();
      return [csvLine(['sf__Id', 'sf__Created', ...job.header]), ...rows];
    }
    if (which === 'failedResults') {
      const rows = job.failed.map((f) => csvLine(['', f.error, ...f.row])).reverse();
      return [csvLine(['sf__Id', 'sf__Error', ...job.header]), ...rows];
    }
    const unprocessed =
      job.state === 'JobComplete'
        ? []
        : parseCsv(job.data ?? '', delimiters[job.columnDelimiter] ?? ',').slice(1);
    return [csvLine(job.header), ...unprocessed.map(csvLine)];
  };

  return (
    method: string,
    segments: string[],
    body: string,
    res: ServerResponse,
    recorded: RecordedSalesforceRequest,
    version: string,
  ) => {
    const [id, part] = segments;
    if (id === undefined && method === 'POST') return sendJson(res, recorded, 200, create(version, body));
    if (id === undefined)
      throw new SalesforceApiError(405, 'METHOD_NOT_ALLOWED', `HTTP Method '${method}' not allowed`);
    const job = jobOf(id);
    if (part === undefined) {
      if (method === 'GET') {
        if (job.state === 'UploadComplete' || job.state === 'InProgress') {
          job.polls += 1;
          if (job.polls > pollsInProgress) run(job);
          else job.state = 'InProgress';
        }
        return sendJson(res, recorded, 200, info(job, version));
      }
      if (method === 'PATCH') {
        const { state } = JSON.parse(body || '{}') as { state?: string };
        if (job.state !== 'Open') throw invalidState(job);
        if (state === 'UploadComplete') job.state = 'UploadComplete';
        else if (state === 'Aborted') job.state = 'Aborted';
        else
          throw new SalesforceApiError(
            400,
            'INVALIDJOBSTATE',
            `Cannot change the state to ${String(state)}.`,
          );
        return sendJson(res, recorded, 200, info(job, version));
      }
      if (method === 'DELETE') {
        jobs.delete(job.id);
        return sendEmpty(res, recorded, 204);
      }
    }
    if (part === 'batches' && segments.length === 2 && method === 'PUT') {
      if (job.state !== 'Open' || job.data !== undefined) throw invalidState(job);
      job.data = body;
      return sendEmpty(res, recorded, 201);
    }
    if (
      (part === 'successfulResults' || part === 'failedResults' || part === 'unprocessedrecords') &&
      segments.length === 2 &&
      method === 'GET'
    ) {
      return sendText(res, recorded, 200, 'text/csv', `${results(job, part).join('\n')}\n`);
    }
    throw new SalesforceApiError(404, 'NOT_FOUND', 'The requested resource does not exist');
  };
}
