import { setTimeout as sleep } from 'node:timers/promises';
import type { Connection, QueryResult } from '@jsforce/jsforce-node';
import type { CrmMapping } from '../../../config/crm';
import type { Log } from '../../../lib/logger';
import {
  CrmAudienceTooLargeError,
  CrmError,
  crmFailureReasons,
  membershipLimit,
  type CrmFailure,
  type CrmMembershipOptions,
  type CrmMembershipPreview,
  type CrmMembershipResult,
  type CrmReportQuery,
} from '../crm';
import { describeError, type SalesforceConnection, type SfRecord } from './salesforce-connection';
import { readCampaign, summaryOf, valueAt, type Person } from './salesforce-records';
import { and, segmentSoql } from './salesforce-reports';
import { isSalesforceId, soqlId, soqlList } from './soql';

/**
 * Campaign membership in the org (Crm.campaignMembership, addCampaignMembers): a report's
 * contacts (and leads, when the mapping has lead fields) become CampaignMember rows.
 *
 * 1. The report's people by SOQL, with the report's own filters (salesforce-reports.ts), the
 *    campaign's membership aside; counted first (COUNT()) where a count is exact, so a report
 *    past the limit is refused before its rows are read.
 * 2. Which of them are the campaign's members already: the campaign's CampaignMembers whole when
 *    it has no more of them than the report has people, else by IN lists of 200 ids.
 * 3. The others are created: up to BULK_THRESHOLD by sObject Collections (200 a request,
 *    allOrNone false: each row succeeds or fails on its own), past it in one Bulk API 2.0 ingest
 *    job (a CSV upload, polled until it completes, its successful and failed rows read back).
 *    DUPLICATE_VALUE (someone made the contact a member meanwhile) counts as a member already.
 *
 * Every request is one `call` with its own deadline. A failure while reading (1, 2) throws a
 * CrmError and nothing is written. A request that fails while writing lists its rows, and every
 * row not sent yet, as failed (crmFailureReasons): what was created stays, and adding the segment
 * again finds it and retries the rest.
 */

/** Rows per sObject Collections request: Salesforce's most. */
export const COLLECTION_SIZE = 200;
/** Past this many new members, one Bulk API 2.0 job instead of sObject Collections requests. */
export const BULK_THRESHOLD = 500;
/** Ids per IN list: the query's URL stays far below Salesforce's 16,384 characters. */
const IN_LIST_SIZE = 200;
/** Membership queries in flight at once. */
const PARALLEL_QUERIES = 4;

export type MembershipSource = {
  call: SalesforceConnection['call'];
  mapping: CrmMapping;
  people: Person[];
  log: Pick<Log, 'warn' | 'debug'>;
  /** Between two polls of a bulk job. */
  bulkPollMs: number;
  /** How long a bulk job is polled before its rows are reported as not answered in time. */
  bulkMaxWaitMs: number;
};

/** One of the report's people: a contact or a lead. */
type Candidate = { id: string; name: string | null; person: Person };

export async function campaignMembership(
  source: MembershipSource,
  campaignId: string,
  report: CrmReportQuery,
  options?: CrmMembershipOptions,
): Promise<CrmMembershipPreview | null> {
  const read = await readMembership(source, campaignId, report, options);
  if (!read) return null;
  const { campaign, candidates, members } = read;
  return {
    campaign,
    total: candidates.length,
    newMembers: candidates.length - members.size,
    alreadyMembers: members.size,
  };
}

export async function addCampaignMembers(
  source: MembershipSource,
  campaignId: string,
  report: CrmReportQuery,
  options?: CrmMembershipOptions,
): Promise<CrmMembershipResult | null> {
  const read = await readMembership(source, campaignId, report, options);
  if (!read) return null;
  const { campaign, candidates, members } = read;
  const result: CrmMembershipResult = {
    campaign,
    total: candidates.length,
    added: 0,
    alreadyMembers: members.size,
    failed: [],
  };
  const newcomers = candidates.filter((c) => !members.has(c.id));
  if (newcomers.length > BULK_THRESHOLD) await insertByBulkJob(source, campaign.id, newcomers, result);
  else await insertByCollections(source, campaign.id, newcomers, result);
  return result;
}

/** The campaign, the report's people, and which of them are its members; null for no campaign. */
async function readMembership(
  source: MembershipSource,
  campaignId: string,
  report: CrmReportQuery,
  options?: CrmMembershipOptions,
) {
  if (!isSalesforceId(campaignId)) return null;
  const found = await source.call('read a campaign', (conn) =>
    readCampaign(conn, source.mapping, campaignId),
  );
  if (!found) return null;
  const campaign = summaryOf(found);
  const candidates = await readAudience(source, report, membershipLimit(options));
  const members = await readMembers(source, campaign.id, candidates);
  return { campaign, candidates, members };
}

/** One person type's query of the report's people: the object, its id and name fields, the condition. */
type AudienceQuery = { person: Person; object: string; idField: string; nameField: string; where: string };

/** The queries of the report's people, one per person type that can match. */
function audienceQueries(people: Person[], report: CrmReportQuery): AudienceQuery[] {
  const queries: AudienceQuery[] = [];
  for (const person of people) {
    const onMember = segmentSoql(people, person, report.segment, `${person.object}.`);
    const onPerson = segmentSoql(people, person, report.segment, '');
    if (onMember === null || onPerson === null) continue;
    const viaMember = (where: string) => ({
      person,
      object: 'CampaignMember',
      idField: person.idField,
      nameField: `${person.object}.Name`,
      where: and(where, `${person.idField} != null`, onMember),
    });
    if (report.type === 'new-prospects') {
      const unconverted = person.object === 'Lead' ? 'IsConverted = false' : '';
      queries.push({
        person,
        object: person.object,
        idField: 'Id',
        nameField: 'Name',
        where: and(unconverted, onPerson),
      });
    } else if (report.type === 'follow-up') {
      if (!isSalesforceId(report.campaignId)) continue;
      queries.push(viaMember(and(`CampaignId = ${soqlId(report.campaignId)}`, 'HasResponded = false')));
    } else {
      const past = report.pastCampaignIds.filter(isSalesforceId);
      if (past.length === 0) continue;
      queries.push(viaMember(and(`CampaignId IN (${past.map(soqlId).join(', ')})`, 'HasResponded = true')));
    }
  }
  return queries;
}

const whereOf = (q: AudienceQuery) => (q.where ? ` WHERE ${q.where}` : '');

/**
 * The report's people, each once. Counted first where each row is one person (new prospects,
 * follow-up), so a report past the limit is refused before a row is read; past responders (a
 * person may have answered several past campaigns) are refused once more than the limit are read.
 */
async function readAudience(
  source: MembershipSource,
  report: CrmReportQuery,
  limit: number,
): Promise<Candidate[]> {
  const queries = audienceQueries(source.people, report);
  if (report.type !== 'past-responders') {
    let total = 0;
    for (const q of queries) {
      total += await source.call(
        'count a segment',
        async (conn) => (await conn.query(`SELECT COUNT() FROM ${q.object}${whereOf(q)}`)).totalSize,
      );
    }
    if (total > limit) throw new CrmAudienceTooLargeError(limit, total);
  }
  const byId = new Map<string, Candidate>();
  for (const q of queries) {
    const soql = `SELECT ${q.idField}, ${q.nameField} FROM ${q.object}${whereOf(q)}`;
    await eachPage(source, 'read a segment', soql, (records) => {
      for (const r of records) {
        const id = valueAt(r, q.idField);
        if (id !== null && !byId.has(id))
          byId.set(id, { id, name: valueAt(r, q.nameField), person: q.person });
      }
      if (byId.size > limit) throw new CrmAudienceTooLargeError(limit, null);
    });
  }
  return [...byId.values()];
}

/** Runs a query a page at a time, each page a call of its own (its own deadline). */
async function eachPage(
  source: MembershipSource,
  what: string,
  soql: string,
  onPage: (records: SfRecord[]) => void,
): Promise<void> {
  const read = (run: (conn: Connection) => PromiseLike<QueryResult<SfRecord>>) =>
    source.call(what, async (conn) => run(conn));
  let page = await read((conn) => conn.query<SfRecord>(soql));
  onPage(page.records);
  while (!page.done && page.nextRecordsUrl) {
    const next = page.nextRecordsUrl;
    page = await read((conn) => conn.queryMore<SfRecord>(next));
    onPage(page.records);
  }
}

/** Which of the candidates are members of the campaign now. */
async function readMembers(
  source: MembershipSource,
  campaignId: string,
  candidates: Candidate[],
): Promise<Set<string>> {
  const members = new Set<string>();
  if (candidates.length === 0) return members;
  const wanted = new Set(candidates.map((c) => c.id));
  const campaign = soqlId(campaignId);
  const count = await source.call(
    'count campaign members',
    async (conn) =>
      (await conn.query(`SELECT COUNT() FROM CampaignMember WHERE CampaignId = ${campaign}`)).totalSize,
  );
  if (count === 0) return members;
  const idFields = [...new Set(candidates.map((c) => c.person.idField))];
  if (count <= candidates.length) {
    // Fewer members than people: the campaign's members whole, in pages, cost fewer requests.
    await eachPage(
      source,
      'read campaign members',
      `SELECT ${idFields.join(', ')} FROM CampaignMember WHERE CampaignId = ${campaign}`,
      (records) => {
        for (const r of records) {
          for (const field of idFields) {
            const id = valueAt(r, field);
            if (id !== null && wanted.has(id)) members.add(id);
          }
        }
      },
    );
    return members;
  }
  const chunks: { field: string; ids: string[] }[] = [];
  for (const field of idFields) {
    const ids = candidates.filter((c) => c.person.idField === field).map((c) => c.id);
    for (let i = 0; i < ids.length; i += IN_LIST_SIZE)
      chunks.push({ field, ids: ids.slice(i, i + IN_LIST_SIZE) });
  }
  await inParallel(chunks, PARALLEL_QUERIES, async ({ field, ids }) => {
    const soql = `SELECT ${field} FROM CampaignMember WHERE CampaignId = ${campaign} AND ${field} IN ${soqlList(ids)}`;
    await eachPage(source, 'read campaign members', soql, (records) => {
      for (const r of records) {
        const id = valueAt(r, field);
        if (id !== null) members.add(id);
      }
    });
  });
  return members;
}

/** Runs `task` on every item, at most `width` at a time; the first failure fails the whole and stops the rest. */
async function inParallel<T>(items: T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const item = items[next]!;
      next += 1;
      try {
        await task(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

/** The CampaignMember row for a candidate. */
const rowOf = (campaignId: string, c: Candidate) => ({ CampaignId: campaignId, [c.person.idField]: c.id });

/** Counts one row's outcome: created, a member already, or failed with the CRM's code and words. */
function tally(
  result: CrmMembershipResult,
  c: Candidate,
  outcome: { ok: true } | { code: string; message: string },
) {
  if ('ok' in outcome) result.added += 1;
  else if (outcome.code === 'DUPLICATE_VALUE') result.alreadyMembers += 1;
  else result.failed.push({ contactId: c.id, name: c.name, code: outcome.code, reason: outcome.message });
}

/** Lists the rows as failed the way the request that carried them failed. */
function failAll(source: MembershipSource, result: CrmMembershipResult, rows: Candidate[], error: unknown) {
  const failure: CrmFailure = error instanceof CrmError ? error.failure : 'unavailable';
  source.log.warn(
    { crm: 'salesforce', rows: rows.length, ...describeError(error) },
    'Salesforce did not take campaign members',
  );
  for (const c of rows)
    result.failed.push({ contactId: c.id, name: c.name, code: failure, reason: crmFailureReasons[failure] });
}

/** Up to 200 rows a request; a request that fails stops, its rows and the rest listed as failed. */
async function insertByCollections(
  source: MembershipSource,
  campaignId: string,
  newcomers: Candidate[],
  result: CrmMembershipResult,
): Promise<void> {
  for (let i = 0; i < newcomers.length; i += COLLECTION_SIZE) {
    const batch = newcomers.slice(i, i + COLLECTION_SIZE);
    let saved;
    try {
      saved = await source.call('add campaign members', (conn) =>
        conn.create(
          'CampaignMember',
          batch.map((c) => rowOf(campaignId, c)),
          { allOrNone: false },
        ),
      );
    } catch (error) {
      failAll(source, result, newcomers.slice(i), error);
      return;
    }
    batch.forEach((c, j) => {
      const r = saved[j];
      if (r?.success) return tally(result, c, { ok: true });
      // Salesforce names a row's error `statusCode`; jsforce's type says `errorCode`.
      const e = (r?.errors[0] ?? {}) as { statusCode?: string; errorCode?: string; message?: string };
      tally(result, c, {
        code: e.statusCode ?? e.errorCode ?? 'UNKNOWN_EXCEPTION',
        message: e.message ?? 'Salesforce gave no result for this contact.',
      });
    });
  }
}

type IngestJob = ReturnType<Connection['bulk2']['createJob']>;
type JobRow = Record<string, string | undefined>;

/**
 * One Bulk API 2.0 ingest job: the rows as a CSV, then the job polled until it completes, then its
 * successful and failed rows matched back to the people by their id (the results keep no order).
 * A row in neither was not processed (a job that failed or was aborted).
 */
async function insertByBulkJob(
  source: MembershipSource,
  campaignId: string,
  newcomers: Candidate[],
  result: CrmMembershipResult,
): Promise<void> {
  const idFields = [...new Set(newcomers.map((c) => c.person.idField))];
  const csv = [
    ['CampaignId', ...idFields].join(','),
    ...newcomers.map((c) =>
      [campaignId, ...idFields.map((f) => (f === c.person.idField ? c.id : ''))].join(','),
    ),
  ].join('\n');
  let job: IngestJob | undefined;
  let state: string;
  let errorMessage: string | undefined;
  let successful: JobRow[];
  let failed: JobRow[];
  try {
    job = await source.call('open a bulk job', async (conn) => {
      const opened = conn.bulk2.createJob({
        object: 'CampaignMember',
        operation: 'insert',
        lineEnding: 'LF',
      });
      await opened.open();
      return opened;
    });
    const open = job;
    await source.call('upload a bulk job’s rows', () => open.uploadData(`${csv}\n`));
    await source.call('close a bulk job', () => open.close());
    const started = Date.now();
    for (;;) {
      const info = await source.call('check a bulk job', () => open.check());
      state = info.state;
      errorMessage = info.errorMessage;
      if (state === 'JobComplete' || state === 'Failed' || state === 'Aborted') break;
      if (Date.now() - started > source.bulkMaxWaitMs)
        throw new CrmError('timeout', `bulk job ${open.id} still ${state} after ${source.bulkMaxWaitMs} ms`);
      await sleep(source.bulkPollMs);
    }
    successful = (await source.call('read a bulk job’s results', () =>
      open.getSuccessfulResults(),
    )) as unknown as JobRow[];
    failed = (await source.call('read a bulk job’s results', () =>
      open.getFailedResults(),
    )) as unknown as JobRow[];
  } catch (error) {
    failAll(source, result, newcomers, error);
    return;
  }
  const byId = new Map(newcomers.map((c) => [c.id, c]));
  const personOf = (row: JobRow) => {
    for (const field of idFields) {
      const c = row[field] ? byId.get(row[field]) : undefined;
      if (c) return c;
    }
    return undefined;
  };
  const done = new Set<string>();
  for (const row of successful) {
    const c = personOf(row);
    if (c && !done.has(c.id)) {
      done.add(c.id);
      tally(result, c, { ok: true });
    }
  }
  for (const row of failed) {
    const c = personOf(row);
    if (c && !done.has(c.id)) {
      done.add(c.id);
      tally(result, c, bulkError(row.sf__Error ?? ''));
    }
  }
  const why = `The bulk job ended ${state === 'JobComplete' ? 'without processing this contact' : `as ${state}${errorMessage ? `: ${errorMessage}` : ''}`}. Add the segment again to retry.`;
  for (const c of newcomers) {
    if (!done.has(c.id))
      result.failed.push({ contactId: c.id, name: c.name, code: 'NOT_PROCESSED', reason: why });
  }
}

/** A failed row's `sf__Error`, `CODE:message:fields` (`--` for none), as its code and message. */
export function bulkError(text: string): { code: string; message: string } {
  const colon = text.indexOf(':');
  if (colon < 0) return { code: 'UNKNOWN_EXCEPTION', message: text };
  const rest = text.slice(colon + 1);
  const fields = rest.lastIndexOf(':');
  return { code: text.slice(0, colon), message: fields < 0 ? rest : rest.slice(0, fields) };
}
