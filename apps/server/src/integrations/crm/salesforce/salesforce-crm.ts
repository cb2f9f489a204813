import type { Connection, HttpRequest, HttpRequestOptions } from '@jsforce/jsforce-node';
import {
  bandOf,
  sizeBands,
  sizeDimensions,
  type CampaignSummary,
  type PastCampaignFact,
  type SegmentDimension,
  type SegmentInput,
  type SizeDimension,
  type ValueCount,
} from '@gem/contracts/campaign-audience-builder';
import { importPKCS8, SignJWT } from 'jose';
import type { CrmMapping, PersonFields, ReportFilterValue, SalesforceConfig } from '../../../config/crm';
import { CrmError, type Crm, type CrmCampaignFacts, type CrmVocabulary } from '../crm';
import { isSalesforceId, soqlContains, soqlId, soqlList, soqlString } from './soql';

/**
 * The Salesforce adapter (GEM_CRM_PROVIDER=salesforce): the org's REST API through jsforce,
 * signed in as an External Client App with the client-credentials flow (or the JWT bearer flow).
 * A token that expires (401 INVALID_SESSION_ID) is replaced by running the grant again, and the
 * request is sent once more. Every call has the deadline GEM_CRM_TIMEOUT_MS; jsforce's own
 * retries are off (a failure is shown at once, the person retries). Failures become CrmError:
 * 'auth' (the org refused GEM's credentials), 'rejected' (a query the org refuses: a mapping
 * field that does not exist, say), 'timeout', 'unavailable' (anything else).
 *
 * Reads: the campaign by Id; its CampaignMembers (HasResponded) with the Contact's or Lead's
 * fields as the mapping file names them, aggregated here; past campaigns of the same Type with
 * NumberOfContacts, NumberOfLeads and NumberOfResponses; reach with COUNT() queries. Reports
 * open as Salesforce report templates (the mapping's report ids) with the values as fv0…fvN.
 */

export type SalesforceCrmLog = {
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
};

/** The most campaign members read for a campaign's facts. */
export const MAX_MEMBERS = 100_000;
/** The most past-campaign responders read to count a past-responders report. */
const MAX_RESPONDERS = 50_000;
/** Candidates read for the past campaigns of a type (the best are kept). */
const PAST_CANDIDATES = 200;
/** A refresh within this long of the last one fails instead: a token that never works is an auth failure. */
const REFRESH_MIN_INTERVAL_MS = 2_000;

/** Salesforce errors that mean the query itself is refused: configuration, not an outage. */
const rejectedCodes = new Set([
  'INVALID_FIELD',
  'MALFORMED_QUERY',
  'INVALID_TYPE',
  'INVALID_QUERY_FILTER_OPERATOR',
  'INVALID_QUERY_LOCATOR',
  'INVALID_OPERATION',
  'NOT_FOUND',
  'INSUFFICIENT_ACCESS',
  'INVALID_FIELD_FOR_INSERT_UPDATE',
]);
const authCodes = new Set([
  'invalid_client',
  'invalid_client_id',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'inactive_user',
  'inactive_org',
  'INVALID_SESSION_ID',
  'INVALID_AUTH_HEADER',
  'API_DISABLED_FOR_ORG',
]);

/** A short, secret-free account of an error for logs and CrmError messages. */
function describeError(err: unknown): { code: string; message: string } {
  const e = err as { name?: string; errorCode?: string; message?: string };
  const code = e?.errorCode ?? e?.name ?? 'Error';
  const message = String(e?.message ?? err)
    .replace(/\s+/g, ' ')
    .slice(0, 300);
  return { code, message };
}

export function toCrmError(err: unknown, what: string): CrmError {
  if (err instanceof CrmError) return err;
  const { code, message } = describeError(err);
  const text = `${what}: ${code}: ${message}`;
  if (code === 'AbortError' || code === 'TimeoutError') return new CrmError('timeout', text, { cause: err });
  if (authCodes.has(code) || message.startsWith('Unable to refresh session'))
    return new CrmError('auth', text, { cause: err });
  if (rejectedCodes.has(code)) return new CrmError('rejected', text, { cause: err });
  return new CrmError('unavailable', text, { cause: err });
}

/** The JWT bearer assertion's audience: Salesforce's login host for its own domains, the login URL otherwise. */
function jwtAudience(loginUrl: string): string {
  const host = new URL(loginUrl).hostname;
  if (host.endsWith('.sandbox.my.salesforce.com') || host === 'test.salesforce.com')
    return 'https://test.salesforce.com';
  if (host.endsWith('.salesforce.com') || host.endsWith('.force.com')) return 'https://login.salesforce.com';
  return new URL(loginUrl).origin;
}

type SfRecord = Record<string, unknown>;

/**
 * The chosen bands' span as report filter values: the lowest band's start (`…From`, for a
 * "greater or equal" filter) and the highest band's end (`…Below`, for "less than"); empty when
 * there is no such bound (no band chosen, or the top band, which has no end).
 */
function spanOf<P extends 'employees' | 'revenue'>(
  prefix: P,
  dimension: SizeDimension,
  keys: readonly string[],
): Record<`${P}From` | `${P}Below`, string[]> {
  const chosen = sizeBands[dimension].filter((band) => keys.includes(band.key));
  const from = chosen.length === 0 ? '' : String(chosen[0]!.from);
  const below = chosen.length === 0 ? null : chosen.at(-1)!.below;
  return { [`${prefix}From`]: [from], [`${prefix}Below`]: [below === null ? '' : String(below)] } as Record<
    `${P}From` | `${P}Below`,
    string[]
  >;
}

/** A value at a field path (`Account.Industry`), relationship names matched in any case, as text. */
function valueAt(record: unknown, path: string): string | null {
  let at: unknown = record;
  for (const part of path.split('.')) {
    if (at === null || typeof at !== 'object') return null;
    const key = Object.keys(at).find((k) => k.toLowerCase() === part.toLowerCase());
    at = key === undefined ? undefined : (at as SfRecord)[key];
  }
  if (at === null || at === undefined || typeof at === 'object') return null;
  const text = String(at as string | number | boolean).trim();
  return text === '' ? null : text;
}

const factKinds = [
  'industry',
  'subIndustry',
  'title',
  'role',
  'workArea',
  'employees',
  'annualRevenue',
] as const;
type FactKind = (typeof factKinds)[number];
const dimensionField: Record<SegmentDimension, keyof PersonFields> = {
  subIndustries: 'subIndustry',
  roles: 'role',
  titles: 'title',
  workAreas: 'workArea',
};
/** The size dimensions: a number on the person's record (the company's), in bands. */
const sizeField: Record<SizeDimension, 'employees' | 'annualRevenue'> = {
  employeeBands: 'employees',
  revenueBands: 'annualRevenue',
};
const bandsOfKind: Partial<Record<FactKind, SizeDimension>> = {
  employees: 'employeeBands',
  annualRevenue: 'revenueBands',
};

/** A kind's value on a record: the text, or for a number the band it falls in. */
function kindValue(record: unknown, path: string, kind: FactKind): string | null {
  const text = valueAt(record, path);
  const dimension = bandsOfKind[kind];
  if (text === null || dimension === undefined) return text;
  return bandOf(sizeBands[dimension], Number(text));
}

type Person = { object: 'Contact' | 'Lead'; idField: 'ContactId' | 'LeadId'; fields: PersonFields };

export function createSalesforceCrm(
  config: SalesforceConfig,
  { log, timeoutMs }: { log: SalesforceCrmLog; timeoutMs: number },
): Crm {
  const { mapping } = config;
  const people: Person[] = [
    { object: 'Contact', idField: 'ContactId', fields: mapping.contact },
    ...(mapping.lead ? [{ object: 'Lead' as const, idField: 'LeadId' as const, fields: mapping.lead }] : []),
  ];
  let connecting: Promise<Connection> | undefined;
  let lastRefresh = 0;

  const grant = async (conn: Connection) => {
    if (config.auth.flow === 'client-credentials') {
      return conn.authorize({ grant_type: 'client_credentials' });
    }
    const key = await importPKCS8(config.auth.privateKey, 'RS256');
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(config.clientId)
      .setSubject(config.auth.username)
      .setAudience(jwtAudience(config.loginUrl))
      .setExpirationTime('3m')
      .sign(key);
    return conn.authorize({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion });
  };

  /** jsforce's transport with GEM's deadline on every request and jsforce's retries off. */
  const withDeadline = (conn: { _transport: Connection['_transport'] }) => {
    const base = conn._transport;
    const options: HttpRequestOptions = { timeout: timeoutMs, retry: { maxRetries: 0 } };
    conn._transport = Object.assign(Object.create(base) as typeof base, {
      httpRequest: (req: HttpRequest, more?: HttpRequestOptions) =>
        base.httpRequest(req, { ...more, ...options }),
    });
  };

  const connect = () => {
    connecting ??= (async () => {
      // Loaded on the first call: a GEM on the embedded CRM never holds jsforce (7.6 MB of
      // memory, bench/memory.md).
      const jsforce = await import('@jsforce/jsforce-node');
      const conn: Connection = new jsforce.Connection({
        loginUrl: config.loginUrl,
        version: config.apiVersion,
        oauth2: {
          loginUrl: config.loginUrl,
          clientId: config.clientId,
          ...(config.auth.flow === 'client-credentials' ? { clientSecret: config.auth.clientSecret } : {}),
        },
        // No refresh token comes with these grants: a fresh token is the grant again.
        refreshFn: (c, callback) => {
          if (Date.now() - lastRefresh < REFRESH_MIN_INTERVAL_MS) {
            callback(new Error('a fresh token was refused too (INVALID_SESSION_ID)'));
            return;
          }
          lastRefresh = Date.now();
          log.debug({ crm: 'salesforce' }, 'Salesforce session expired; signing in again');
          grant(c as Connection).then(
            () => callback(null, c.accessToken ?? undefined),
            (err: unknown) => callback(err as Error),
          );
        },
      });
      withDeadline(conn);
      withDeadline(conn.oauth2);
      await grant(conn);
      return conn;
    })();
    connecting.catch(() => {
      connecting = undefined;
    });
    return connecting;
  };

  /** One port call: its requests under one deadline, failures as CrmError. */
  const call = async <T>(what: string, run: (conn: Connection) => Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new CrmError('timeout', `${what}: no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([connect().then(run), deadline]);
    } catch (err) {
      throw toCrmError(err, what);
    } finally {
      clearTimeout(timer);
    }
  };

  const records = async (conn: Connection, soql: string, max: number) => {
    const result = await conn.query<SfRecord>(soql).autoFetch(true).maxFetch(max);
    return { records: result.records, complete: result.records.length >= result.totalSize };
  };
  const countOf = async (conn: Connection, soql: string) => (await conn.query(soql)).totalSize;

  const campaignFields = [
    'Id',
    'Name',
    'Type',
    'StartDate',
    ...[mapping.campaign.objective, mapping.campaign.lineOfService].filter((f): f is string => f !== null),
  ];
  const distinct = (fields: string[]) => [...new Map(fields.map((f) => [f.toLowerCase(), f])).values()];
  const campaignSelect = distinct(campaignFields).join(', ');

  const readCampaign = async (conn: Connection, campaignId: string) => {
    const { records: found } = await records(
      conn,
      `SELECT ${campaignSelect} FROM Campaign WHERE Id = ${soqlId(campaignId)} LIMIT 1`,
      1,
    );
    return found[0] ?? null;
  };
  const summaryOf = (r: SfRecord): CampaignSummary => ({
    id: String(r.Id),
    name: valueAt(r, 'Name') ?? '',
    type: valueAt(r, 'Type'),
    startDate: valueAt(r, 'StartDate'),
  });

  /**
   * The SOQL condition "this person is in the segment", over a path prefix (`Contact.` on a
   * CampaignMember, '' on the Contact itself); null when the person type cannot match (the
   * segment uses a dimension this org keeps only on the other type).
   */
  const segmentSoql = (person: Person, segment: SegmentInput, prefix: string): string | null => {
    /** undefined: does not narrow; null: this person type cannot match; else the condition. */
    const condition = (
      values: readonly string[],
      key: keyof PersonFields,
      soql: (field: string) => string,
    ): string | null | undefined => {
      if (values.length === 0) return undefined;
      const field = person.fields[key];
      if (field === null) {
        // Kept on neither person type: the dimension does not narrow.
        return people.some((p) => p.fields[key] !== null) ? null : undefined;
      }
      return soql(`${prefix}${field}`);
    };
    const inList = (dimension: SegmentDimension) =>
      condition(
        segment[dimension],
        dimensionField[dimension],
        (field) => `${field} IN ${soqlList(segment[dimension])}`,
      );
    const inBands = (dimension: SizeDimension) => {
      const keys = segment[dimension] ?? [];
      return condition(keys, sizeField[dimension], (field) => {
        // Numbers, not literals: the keys are the contracts' own.
        const ranges = sizeBands[dimension]
          .filter((band) => keys.includes(band.key as never))
          .map((band) =>
            band.below === null
              ? `${field} >= ${band.from}`
              : `(${field} >= ${band.from} AND ${field} < ${band.below})`,
          );
        return ranges.length === 1 ? ranges[0]! : `(${ranges.join(' OR ')})`;
      });
    };
    const parts: string[] = [];
    const sub = inList('subIndustries');
    const role = inList('roles');
    const title = inList('titles');
    const area = inList('workAreas');
    const sizes = sizeDimensions.map(inBands);
    if (
      sizes.includes(null) ||
      sub === null ||
      area === null ||
      (role === null && title === null) ||
      (role === null && title === undefined) ||
      (title === null && role === undefined)
    )
      return null;
    if (sub) parts.push(sub);
    const either = [role, title].filter((p): p is string => typeof p === 'string');
    if (either.length > 0) parts.push(either.length === 1 ? either[0]! : `(${either.join(' OR ')})`);
    if (area) parts.push(area);
    for (const size of sizes) if (size) parts.push(size);
    return parts.join(' AND ');
  };
  const and = (...parts: (string | null | undefined)[]) => parts.filter((p) => p).join(' AND ');

  const today = () => new Date().toISOString().slice(0, 10);

  return {
    provider: 'salesforce',
    sample: false,
    revenueCurrency: mapping.revenueCurrency,

    listCampaigns(q, limit) {
      const text = q.trim();
      const conditions = text === '' ? [] : [`Name LIKE ${soqlContains(text)}`];
      if (isSalesforceId(text)) conditions.push(`Id = ${soqlId(text)}`);
      const where = conditions.length > 0 ? ` WHERE ${conditions.join(' OR ')}` : '';
      const size = Math.max(1, Math.min(200, Math.floor(limit)));
      return call('list campaigns', async (conn) => {
        const { records: found } = await records(
          conn,
          `SELECT Id, Name, Type, StartDate FROM Campaign${where} ORDER BY StartDate DESC NULLS LAST, Id LIMIT ${size}`,
          size,
        );
        return found.map(summaryOf);
      });
    },

    getCampaign(campaignId) {
      if (!isSalesforceId(campaignId)) return Promise.resolve(null);
      return call('read a campaign', async (conn) => {
        const found = await readCampaign(conn, campaignId);
        return found ? summaryOf(found) : null;
      });
    },

    campaignFacts(campaignId, options) {
      if (!isSalesforceId(campaignId)) return Promise.resolve(null);
      return call('read a campaign’s facts', async (conn): Promise<CrmCampaignFacts | null> => {
        const campaign = await readCampaign(conn, campaignId);
        if (!campaign) return null;
        const id = String(campaign.Id);

        // The members, with each person type's mapped fields.
        const memberFields = distinct([
          'Id',
          'HasResponded',
          ...people.flatMap((p) => [
            p.idField,
            ...factKinds
              .map((k) => p.fields[k])
              .filter((f): f is string => f !== null)
              .map((f) => `${p.object}.${f}`),
          ]),
        ]);
        const onlyContacts = mapping.lead ? '' : ' AND ContactId != null';
        const members = await records(
          conn,
          `SELECT ${memberFields.join(', ')} FROM CampaignMember WHERE CampaignId = ${soqlId(id)}${onlyContacts}`,
          MAX_MEMBERS,
        );
        if (!members.complete) {
          log.warn(
            { crm: 'salesforce', campaignId: id, read: members.records.length },
            'campaign facts read from the first members only',
          );
        }
        const split = new Map<FactKind, Map<string, ValueCount>>(factKinds.map((k) => [k, new Map()]));
        let responders = 0;
        let counted = 0;
        for (const member of members.records) {
          const person = people.find((p) => valueAt(member, p.idField) !== null);
          if (!person) continue;
          counted += 1;
          const responded = member.HasResponded === true;
          if (responded) responders += 1;
          for (const kind of factKinds) {
            const field = person.fields[kind];
            const value = field === null ? null : kindValue(member, `${person.object}.${field}`, kind);
            if (value === null) continue;
            const values = split.get(kind)!;
            const entry = values.get(value) ?? { value, responders: 0, nonResponders: 0 };
            if (responded) entry.responders += 1;
            else entry.nonResponders += 1;
            values.set(value, entry);
          }
        }
        const ranked = (kind: FactKind) =>
          [...split.get(kind)!.values()].sort(
            (a, b) =>
              b.responders + b.nonResponders - (a.responders + a.nonResponders) ||
              (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
          );
        const banded = (kind: 'employees' | 'annualRevenue') => {
          const counts = split.get(kind)!;
          return sizeBands[bandsOfKind[kind]!].flatMap((band) => counts.get(band.key) ?? []);
        };

        // Past campaigns of the same type, best response rate first.
        const type = valueAt(campaign, 'Type');
        let pastCampaigns: PastCampaignFact[] = [];
        if (type !== null && options.pastCampaigns > 0) {
          const pastFields = distinct([
            ...campaignFields,
            'NumberOfContacts',
            'NumberOfLeads',
            'NumberOfResponses',
          ]);
          const past = await records(
            conn,
            `SELECT ${pastFields.join(', ')} FROM Campaign WHERE Type = ${soqlString(type)} AND Id != ${soqlId(id)} ` +
              `AND StartDate <= ${today()} ORDER BY StartDate DESC LIMIT ${PAST_CANDIDATES}`,
            PAST_CANDIDATES,
          );
          const number = (r: SfRecord, field: string) =>
            Math.max(0, Math.round(Number(valueAt(r, field) ?? 0)) || 0);
          pastCampaigns = past.records
            .map((r) => {
              const pastMembers =
                number(r, 'NumberOfContacts') + (mapping.lead ? number(r, 'NumberOfLeads') : 0);
              return {
                id: String(r.Id),
                name: valueAt(r, 'Name') ?? '',
                startDate: valueAt(r, 'StartDate'),
                objective: mapping.campaign.objective ? valueAt(r, mapping.campaign.objective) : null,
                lineOfService: mapping.campaign.lineOfService
                  ? valueAt(r, mapping.campaign.lineOfService)
                  : null,
                members: pastMembers,
                responders: Math.min(pastMembers, number(r, 'NumberOfResponses')),
              };
            })
            .sort(
              (a, b) =>
                (b.members ? b.responders / b.members : -1) - (a.members ? a.responders / a.members : -1),
            )
            .slice(0, options.pastCampaigns);
        }

        const facts: CrmCampaignFacts['facts'] = {
          campaign: {
            id,
            name: valueAt(campaign, 'Name') ?? '',
            type,
            startDate: valueAt(campaign, 'StartDate'),
            objective: mapping.campaign.objective ? valueAt(campaign, mapping.campaign.objective) : null,
            lineOfService: mapping.campaign.lineOfService
              ? valueAt(campaign, mapping.campaign.lineOfService)
              : null,
          },
          members: counted,
          responders,
          byIndustry: ranked('industry').slice(0, options.topValues),
          bySubIndustry: ranked('subIndustry').slice(0, options.topValues),
          byTitle: ranked('title').slice(0, options.topValues),
          byRole: ranked('role').slice(0, options.topValues),
          byWorkArea: ranked('workArea').slice(0, options.topValues),
          byEmployees: banded('employees'),
          byRevenue: banded('annualRevenue'),
          revenueCurrency: mapping.revenueCurrency,
          pastCampaigns,
        };

        // The vocabulary: the values seen among the members (most first), then the picklist values.
        // Every band of a size the org keeps a number for: bands need no picklist.
        const bandsKept = (dimension: SizeDimension) =>
          people.some((p) => p.fields[sizeField[dimension]] !== null)
            ? sizeBands[dimension].map((band) => band.key)
            : [];
        const vocabulary: CrmVocabulary = {
          subIndustries: [],
          roles: [],
          titles: [],
          workAreas: [],
          employeeBands: bandsKept('employeeBands'),
          revenueBands: bandsKept('revenueBands'),
        };
        for (const dimension of Object.keys(dimensionField) as SegmentDimension[]) {
          const kind = dimensionField[dimension] as FactKind;
          const seen = ranked(kind).map((v) => v.value);
          const picklists = await picklistValues(conn, kind);
          const all = [...new Set([...seen, ...picklists])];
          const shown = new Set(
            (dimension === 'subIndustries'
              ? facts.bySubIndustry
              : dimension === 'roles'
                ? facts.byRole
                : dimension === 'titles'
                  ? facts.byTitle
                  : facts.byWorkArea
            ).map((v) => v.value),
          );
          vocabulary[dimension] = [
            ...all.slice(0, options.vocabularySize),
            ...[...shown].filter((v) => !all.slice(0, options.vocabularySize).includes(v)),
          ];
        }
        return { facts, vocabulary };
      });
    },

    reach(report) {
      if (!isSalesforceId(report.campaignId)) return Promise.resolve(0);
      return call(`count a ${report.type} report`, async (conn) => {
        let total = 0;
        for (const person of people) {
          const onMember = segmentSoql(person, report.segment, `${person.object}.`);
          const onPerson = segmentSoql(person, report.segment, '');
          if (onMember === null || onPerson === null) continue;
          const memberOf = `CampaignId = ${soqlId(report.campaignId)} AND ${person.idField} != null`;
          const unconverted = person.object === 'Lead' ? 'IsConverted = false' : '';
          if (report.type === 'follow-up') {
            total += await countOf(
              conn,
              `SELECT COUNT() FROM CampaignMember WHERE ${and(memberOf, 'HasResponded = false', onMember)}`,
            );
          } else if (report.type === 'new-prospects') {
            // Everyone in the segment, less the campaign's members in it (a person is a member once).
            const everyone = await countOf(
              conn,
              `SELECT COUNT() FROM ${person.object}${unconverted || onPerson ? ` WHERE ${and(unconverted, onPerson)}` : ''}`,
            );
            const already = await countOf(
              conn,
              `SELECT COUNT() FROM CampaignMember WHERE ${and(memberOf, unconverted && `Lead.${unconverted}`, onMember)}`,
            );
            total += Math.max(0, everyone - already);
          } else {
            const past = report.pastCampaignIds.filter(isSalesforceId);
            if (past.length === 0) continue;
            const responders = await records(
              conn,
              `SELECT ${person.idField} FROM CampaignMember WHERE ${and(
                `CampaignId IN (${past.map(soqlId).join(', ')})`,
                `${person.idField} != null`,
                'HasResponded = true',
                onMember,
              )}`,
              MAX_RESPONDERS,
            );
            const current = await records(
              conn,
              `SELECT ${person.idField} FROM CampaignMember WHERE ${and(memberOf, onMember)}`,
              MAX_MEMBERS,
            );
            if (!responders.complete || !current.complete) return null;
            const members = new Set(current.records.map((r) => valueAt(r, person.idField)));
            const ids = new Set(responders.records.map((r) => valueAt(r, person.idField)));
            for (const idValue of ids) if (!members.has(idValue)) total += 1;
          }
        }
        return total;
      });
    },

    reportUrl(report) {
      const template = mapping.reports[report.type];
      if (!template) return null;
      const { employeeBands = [], revenueBands = [] } = report.segment;
      const valuesOf: Record<ReportFilterValue, readonly string[]> = {
        campaignId: [report.campaignId],
        pastCampaignIds: report.pastCampaignIds,
        subIndustries: report.segment.subIndustries,
        roles: report.segment.roles,
        titles: report.segment.titles,
        workAreas: report.segment.workAreas,
        employeeBands,
        revenueBands,
        ...spanOf('employees', 'employeeBands', employeeBands),
        ...spanOf('revenue', 'revenueBands', revenueBands),
      };
      const params = new URLSearchParams(
        template.filters.map((filter, i): [string, string] => [`fv${i}`, valuesOf[filter].join(',')]),
      );
      const query = params.size > 0 ? `?${params.toString()}` : '';
      return `${config.loginUrl}/lightning/r/Report/${template.reportId}/view${query}`;
    },

    reportContacts() {
      return Promise.resolve(null);
    },

    reportPages() {
      return null;
    },
  };

  /** The picklist values of the fields a kind is mapped to (Contact's and Lead's), when they are picklists. */
  async function picklistValues(conn: Connection, kind: FactKind): Promise<string[]> {
    const values: string[] = [];
    for (const person of people) {
      const path = person.fields[kind];
      if (path === null) continue;
      try {
        let object = person.object as string;
        const parts = path.split('.');
        for (const relationship of parts.slice(0, -1)) {
          const described = await conn.describe$(object);
          const lookup = described.fields.find(
            (f) => f.relationshipName?.toLowerCase() === relationship.toLowerCase(),
          );
          if (!lookup?.referenceTo?.[0]) throw new Error(`no relationship ${relationship} on ${object}`);
          object = lookup.referenceTo[0];
        }
        const described = await conn.describe$(object);
        const field = described.fields.find((f) => f.name.toLowerCase() === parts.at(-1)!.toLowerCase());
        if (field?.type === 'picklist')
          values.push(...field.picklistValues!.filter((v) => v.active).map((v) => v.value));
      } catch (err) {
        const error = toCrmError(err, `describe ${person.object}.${path}`);
        if (error.failure === 'timeout' || error.failure === 'auth') throw error;
        log.debug({ crm: 'salesforce', err: describeError(err) }, 'no picklist values for a mapped field');
      }
    }
    return values;
  }
}

export type { CrmMapping };
