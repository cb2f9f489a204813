import {
  reportTypeLabels,
  reportTypes,
  REPORT_PAGE_SIZE,
  SEGMENT_VALUES_MAX,
  sizeBandLabel,
  sizeBands,
  type SizeDimension,
  type CampaignFacts,
  type CampaignsResponse,
  type CampaignSummary,
  type GenerateSegmentsResponse,
  type ReportContact,
  type ReportQuery,
  type ReportResponse,
  type ReportType,
  type Segment,
  type SegmentReport,
} from '@gem/contracts/campaign-audience-builder';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { CrmError, type Crm, type CrmReportQuery, type CrmVocabulary } from '../../integrations/crm/crm';
import {
  addUsage,
  LlmError,
  repairTurns,
  type ChatTurn,
  type TokenUsage,
} from '../../integrations/llm/text-model';
import type { AiCallScope, AiPlatform } from '../../lib/ai/ai-platform';
import { toAppError } from '../../lib/ai/ai-errors';
import { AppError } from '../../lib/app-error';
import type { CrmExportOutcome, Metrics } from '../../lib/metrics';
import { createLeaseLimiter, type UserLease } from '../../lib/user-leases';
import { checkAnalysis, contradictionsIn } from './campaign-audience-builder.claims';
import { repairRequest, segmentsSystemPrompt, segmentsUserPrompt } from './campaign-audience-builder.prompts';

/**
 * The campaign audience builder (issue 14): reads a campaign and who responded to it and to
 * past campaigns of its type from the CRM, asks the model for the segments to target next
 * (structured output whose lists may only hold values that exist in the CRM), and builds a
 * report per type for the segment with its reach. Also the campaign picker and the embedded
 * CRM's report pages and CSV files.
 */

type Logger = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export type GenerationContext = { userId: string; log: Logger; signal: AbortSignal };

/** Who asks for a report page or a CSV file. */
export type ReportContext = { userId: string; log: Logger };

/** How much of the CRM the model is shown. */
const FACTS = { topValues: 12, pastCampaigns: 8, vocabularySize: 150 } as const;
/** Campaigns the picker lists. */
const PICKER_SIZE = 20;
/** The most rows a CSV file holds; a report with more says so in its last line. */
export const CSV_MAX_ROWS = 50_000;
/**
 * Contacts a CSV export reads from the CRM at a time. On the embedded database one page's
 * statement holds the event loop while it runs (a few ms on PostgreSQL, some tens on PGlite):
 * small enough that the server answers requests in between, large enough that a
 * 10,000-contact file takes about 70 statements (bench/crm-export.md).
 */
export const EXPORT_PAGE_SIZE = 150;
/** Report pages and CSV exports one user may have running at once, on every instance together. */
export const REPORTS_AT_ONCE = 2;
/**
 * A report's or an export's lease: it stops counting after this even when its instance died,
 * and an export still running then (a client that stopped reading) is cut off.
 */
export const REPORT_LEASE_MS = 10 * 60_000;
/** The ids and the e-mail first: the file goes into an e-mail tool or back into the CRM by them. */
export const CSV_HEADER = [
  'Contact ID',
  'Name',
  'E-mail',
  'Title',
  'Account ID',
  'Account',
  'Industry',
  'Sub-industry',
  'Employees',
  'Annual revenue',
  'Last response',
  'Responded on',
];

export const CRM_UNAVAILABLE = 'The CRM is not available right now. Please try again in a moment.';
export const REPORTS_IN_SALESFORCE =
  'Reports open in Salesforce: this GEM reads campaigns from Salesforce and has no report pages of its own.';
export const noSuchCampaign = (id: string) =>
  `No campaign has the ID ${id}. Check the ID in the CRM, or pick a campaign from the list.`;
export const reportsRunning = (running: number) =>
  `You already have ${running} reports or CSV exports running. Wait for one to finish, then try again.`;

/** A CSV file's rows, as text: a cell that starts with =, +, -, @ is not run as a formula when a spreadsheet opens it. */
const csvText = (rows: string[][]) => stringify(rows, { escape_formulas: true, record_delimiter: 'windows' });

const csvRow = (c: ReportContact) => [
  c.id,
  c.name,
  c.email ?? '',
  c.title ?? '',
  c.accountId ?? '',
  c.account ?? '',
  c.industry ?? '',
  c.subIndustry ?? '',
  c.employees === null ? '' : String(c.employees),
  c.annualRevenue === null ? '' : String(c.annualRevenue),
  c.lastResponse?.campaignName ?? '',
  c.lastResponse?.respondedAt ?? '',
];

/**
 * The answer's shape, as the model is asked for it: every list offers the CRM's values as an
 * enum, and at most SEGMENT_VALUES_MAX of them, as JSON-schema hints only. A value the CRM does not
 * have, a value in a list the CRM has none for (a dimension its mapping leaves out) or too many
 * values pass the check, and keepKnown drops them afterwards: no way of overfilling a list fails
 * the generation.
 */
function answerSchema(vocabulary: CrmVocabulary, pastCampaignIds: string[], currency: string | null) {
  const choices = (values: string[], description: string) =>
    values.length === 0
      ? z
          .array(z.string())
          .meta({ maxItems: 0 })
          .describe(`${description} Brak dostępnych wartości w CRM: zostaw pustą listę.`)
      : z
          .array(z.string().meta({ enum: values }))
          .meta({ maxItems: SEGMENT_VALUES_MAX })
          .describe(description);
  return z.object({
    explanation: z.string().describe('Dlaczego te segmenty: 3–5 zdań po polsku, z liczbami z danych.'),
    subIndustries: choices(vocabulary.subIndustries, 'Podbranże segmentu.'),
    roles: choices(vocabulary.roles, 'Role kontaktów w segmencie.'),
    titles: choices(vocabulary.titles, 'Stanowiska kontaktów w segmencie.'),
    workAreas: choices(vocabulary.workAreas, 'Obszary pracy kontaktów w segmencie.'),
    // Left out by some models when they choose no band: read as none.
    employeeBands: z.preprocess(
      (value) => value ?? [],
      choices(vocabulary.employeeBands, 'Przedziały liczby pracowników firm w segmencie (np. 50-249).'),
    ),
    revenueBands: z.preprocess(
      (value) => value ?? [],
      choices(
        vocabulary.revenueBands,
        `Przedziały rocznych przychodów firm w segmencie${currency ? ` (w ${currency})` : ''}; M = mln, B = mld.`,
      ),
    ),
    campaignIds: choices(pastCampaignIds, 'ID wcześniejszych kampanii, na których warto się wzorować.'),
    approach: z.string().describe('Jak dotrzeć do segmentów: 3–5 zdań po polsku.'),
  });
}
type ModelAnswer = z.infer<ReturnType<typeof answerSchema>>;

/** Keeps the values the CRM has (in its spelling, matched without regard to case), once each. */
function keepKnown(values: string[], known: string[]): { kept: string[]; dropped: string[] } {
  const canonical = new Map(known.map((value) => [value.toLocaleLowerCase('pl'), value]));
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const value of values) {
    const match = canonical.get(value.trim().toLocaleLowerCase('pl'));
    if (match === undefined) dropped.push(value);
    else if (!kept.includes(match)) kept.push(match);
  }
  return { kept: kept.slice(0, SEGMENT_VALUES_MAX), dropped };
}

const joined = (values: readonly string[]) => values.join(', ');

const listed = (values: readonly string[], max = 3) =>
  values.length <= max ? joined(values) : `${joined(values.slice(0, max))} and ${values.length - max} more`;

/**
 * The model's size bands as keys: a key in any case, or a band's label ("50–249 employees",
 * "PLN 10M–50M", "1,000+"), as models sometimes copy the label instead.
 */
function keepBands(
  values: string[],
  dimension: SizeDimension,
  offered: string[],
  currency: string | null,
): { kept: string[]; dropped: string[] } {
  const code = currency?.toLocaleLowerCase('pl');
  const plain = (text: string) => {
    const bare = text
      .toLocaleLowerCase('pl')
      .replace(/[\u2012-\u2015]/g, '-')
      .replace(/employees|pracownik\p{L}*|[\s,]/gu, '');
    return code ? bare.replaceAll(code, '') : bare;
  };
  const byForm = new Map<string, string>();
  for (const band of sizeBands[dimension]) {
    if (!offered.includes(band.key)) continue;
    for (const form of [
      band.key,
      sizeBandLabel(dimension, band.key),
      sizeBandLabel(dimension, band.key, currency),
    ])
      byForm.set(plain(form), band.key);
  }
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const value of values) {
    const key = byForm.get(plain(value));
    if (key === undefined) dropped.push(value);
    else if (!kept.includes(key)) kept.push(key);
  }
  // In band order, as the page and the links show them.
  return { kept: offered.filter((key) => kept.includes(key)), dropped };
}

/** The segment in words, e.g. "sub-industries Automotive parts, Chemicals; roles or titles CFO". */
function segmentInWords(segment: Segment, currency: string | null): string {
  const people = [...segment.roles, ...segment.titles];
  const bands = (dimension: SizeDimension) =>
    segment[dimension].map((key) => sizeBandLabel(dimension, key, currency));
  const parts = [
    segment.subIndustries.length > 0 ? `sub-industries ${listed(segment.subIndustries)}` : null,
    people.length > 0 ? `roles or titles ${listed(people)}` : null,
    segment.workAreas.length > 0 ? `work areas ${listed(segment.workAreas)}` : null,
    segment.employeeBands.length > 0 ? `companies of ${listed(bands('employeeBands'))}` : null,
    segment.revenueBands.length > 0 ? `annual revenue ${listed(bands('revenueBands'))}` : null,
  ].filter((part) => part !== null);
  return parts.length === 0 ? 'all contacts' : parts.join('; ');
}

/** A report's title and what it holds, in words. */
export function reportWording(
  type: ReportType,
  campaign: { name: string },
  segment: Segment,
  pastCampaigns: number,
  currency: string | null = null,
): { title: string; description: string } {
  const who = segmentInWords(segment, currency);
  const name = `“${campaign.name}”`;
  const title = `${reportTypeLabels[type]}: ${listed(segment.subIndustries.length > 0 ? segment.subIndustries : [...segment.roles, ...segment.titles], 2) || 'all contacts'}`;
  switch (type) {
    case 'new-prospects':
      return {
        title,
        description: `Contacts in the segment (${who}) who are not members of ${name} yet: invite them.`,
      };
    case 'follow-up':
      return {
        title,
        description: `Members of ${name} in the segment (${who}) who have not responded yet: remind them.`,
      };
    case 'past-responders':
      return {
        title,
        description: `Contacts in the segment (${who}) who responded to ${pastCampaigns === 1 ? 'the recommended past campaign' : `the ${pastCampaigns} recommended past campaigns`} and are not members of ${name} yet.`,
      };
  }
}

export function createCampaignAudienceBuilder({
  crm,
  ai,
  db,
  metrics,
}: {
  crm: Crm;
  ai: AiPlatform;
  /** Where the per-user report leases are counted (lib/user-leases.ts). */
  db: Db;
  metrics?: Pick<Metrics, 'crmExport' | 'crmExportPage'> | undefined;
}) {
  // Reading a report holds the database (on PGlite, the event loop) for a while: a user gets a
  // few at once, across instances, and a clear 429 past that.
  const reportLeases = createLeaseLimiter({
    db,
    kind: 'crm-report',
    limits: { concurrent: REPORTS_AT_ONCE },
    leaseMs: REPORT_LEASE_MS,
    refusals: { running: reportsRunning },
  });

  /** A CRM call; its failure becomes a 502 crm_unavailable, the cause logged. */
  async function fromCrm<T>(log: Logger, what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof CrmError)) throw err;
      log.error({ err, crm: crm.provider, failure: err.failure }, `CRM call failed: ${what}`);
      throw new AppError(502, 'crm_unavailable', CRM_UNAVAILABLE, undefined, { cause: err });
    }
  }

  /** The model's answer, asked for once more (with the answer and its fault) when it cannot be used. */
  async function askModel(
    scope: AiCallScope,
    facts: CampaignFacts,
    vocabulary: CrmVocabulary,
    topic: string,
    { log, signal }: GenerationContext,
  ): Promise<{ object: ModelAnswer; usage: TokenUsage; model: string }> {
    const schema = answerSchema(
      vocabulary,
      facts.pastCampaigns.map((c) => c.id),
      facts.revenueCurrency,
    );
    const asked: ChatTurn[] = [{ role: 'user', content: segmentsUserPrompt(facts, topic) }];
    let messages = asked;
    let spent: TokenUsage | null = null;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const result = await scope.model.object({
          system: segmentsSystemPrompt,
          messages,
          schema,
          schemaName: 'campaign_audience_segments',
          schemaDescription: 'Segmenty odbiorców kampanii wybrane z wartości istniejących w CRM.',
          signal,
          maxOutputTokens: 2_048,
        });
        return { ...result, usage: spent ? addUsage(spent, result.usage) : result.usage };
      } catch (err) {
        if (attempt > 1 || !(err instanceof LlmError) || err.failure !== 'invalid_output') throw err;
        const { rejected } = err.details;
        log.warn(
          {
            tool: 'campaign-audience-builder',
            reason: err.message,
            path: rejected?.path,
            issue: rejected?.message,
          },
          'unusable answer; asking once more',
        );
        // The model sees its answer and what is wrong with it.
        messages = repairTurns(asked, rejected, repairRequest);
        spent = { promptTokens: null, completionTokens: null };
      }
    }
  }

  /** The reports of a segment, one per type the CRM has a report for, each with its reach. */
  async function reportsOf(
    facts: CampaignFacts,
    segment: Segment,
    pastCampaignIds: string[],
    log: Logger,
  ): Promise<SegmentReport[]> {
    const types = reportTypes.filter((type) => type !== 'past-responders' || pastCampaignIds.length > 0);
    const reports = await Promise.all(
      types.map(async (type): Promise<SegmentReport | null> => {
        const query: CrmReportQuery = { type, campaignId: facts.campaign.id, segment, pastCampaignIds };
        const url = crm.reportUrl(query);
        if (url === null) return null;
        let reach: number | null = null;
        try {
          reach = await crm.reach(query);
        } catch (err) {
          if (!(err instanceof CrmError)) throw err;
          log.warn({ err, crm: crm.provider, type }, 'could not count a report; shown without its reach');
        }
        return {
          type,
          url,
          reach,
          ...reportWording(type, facts.campaign, segment, pastCampaignIds.length, crm.revenueCurrency),
        };
      }),
    );
    return reports.filter((report) => report !== null);
  }

  /** A report's campaign and wording, for its page and its CSV file. */
  async function reportHeading(query: ReportQuery, log: Logger) {
    const campaign = await fromCrm(log, 'read a campaign', () => crm.getCampaign(query.campaignId));
    if (!campaign) throw new AppError(404, 'not_found', noSuchCampaign(query.campaignId));
    const segment: Segment = {
      subIndustries: query.subIndustry,
      roles: query.role,
      titles: query.title,
      workAreas: query.workArea,
      employeeBands: query.employees,
      revenueBands: query.revenue,
    };
    const report: CrmReportQuery = {
      type: query.type,
      campaignId: query.campaignId,
      segment,
      pastCampaignIds: query.pastCampaign,
    };
    return {
      campaign,
      report,
      segment,
      ...reportWording(query.type, campaign, segment, query.pastCampaign.length, crm.revenueCurrency),
    };
  }

  /**
   * A whole report as CSV text, a page of the CRM's contacts at a time: the BOM and the header
   * row with the first page (a CRM failure before it is still an error answer), then each page
   * as the client takes the one before (the stream's backpressure pulls the next), never the
   * whole report in memory.
   */
  async function* csvChunks(
    report: CrmReportQuery,
    pages: AsyncIterable<ReportContact[]>,
    log: Logger,
  ): AsyncGenerator<string> {
    const pending = pages[Symbol.asyncIterator]();
    const next = () => fromCrm(log, 'export a report', () => pending.next());
    let head = `\uFEFF${csvText([CSV_HEADER])}`;
    let sent = 0;
    try {
      for (let page = await next(); !page.done; page = await next()) {
        metrics?.crmExportPage(page.value.length);
        const kept = page.value.slice(0, CSV_MAX_ROWS - sent);
        if (kept.length > 0) {
          sent += kept.length;
          yield head + csvText(kept.map(csvRow));
          head = '';
        }
        if (kept.length < page.value.length) {
          const total = await fromCrm(log, 'count a report', () => crm.reach(report));
          const more = total === null ? 'more contacts' : `${total - CSV_MAX_ROWS} more contacts`;
          yield csvText([[`… and ${more}: narrow the segment.`]]);
          return;
        }
      }
      if (head) yield head;
    } finally {
      // Ends the CRM's reading too when the client left mid-file.
      await pending.return?.();
    }
  }

  /**
   * The CSV file as a stream that holds the user's lease until it closes: sent whole, failed,
   * cut off at REPORT_LEASE_MS, or abandoned by the client (Fastify destroys it then).
   */
  function csvStream(chunks: AsyncGenerator<string>, lease: UserLease, log: Logger): Readable {
    let outcome: CrmExportOutcome = 'aborted';
    const body = Readable.from(
      (async function* counted() {
        try {
          yield* chunks;
          outcome = 'completed';
        } catch (err) {
          outcome = 'failed';
          throw err;
        }
      })(),
      // Bytes, not objects: at most one page waits in the stream ahead of the client.
      { objectMode: false },
    );
    // Headers and most of the file are out by then: the client sees a cut-off download.
    const deadline = setTimeout(() => {
      log.warn({ limitMs: REPORT_LEASE_MS }, 'a CSV export ran past its lease; stopped');
      body.destroy(new Error('the CSV export ran past its lease'));
    }, REPORT_LEASE_MS);
    deadline.unref();
    body.once('close', () => {
      clearTimeout(deadline);
      metrics?.crmExport(outcome);
      void lease.release();
    });
    return body;
  }

  /** Takes one of the user's report slots, or throws the 429 (counted for an export). */
  async function reportLease(userId: string, kind: 'page' | 'export'): Promise<UserLease> {
    try {
      return await reportLeases.acquire(userId);
    } catch (err) {
      if (kind === 'export' && err instanceof AppError && err.statusCode === 429) {
        metrics?.crmExport('refused');
      }
      throw err;
    }
  }

  return {
    /** The picker's campaigns: matching `q`, or the most recent. */
    async campaigns(q: string, log: Logger): Promise<CampaignsResponse> {
      const campaigns = await fromCrm(log, 'list campaigns', () => crm.listCampaigns(q, PICKER_SIZE));
      return { campaigns, crm: crm.provider, sample: crm.sample };
    },

    /** Spec §7 `POST /api/sf/generate-boost-segments`. */
    async generate(
      request: { campaignId: string; topic: string },
      context: GenerationContext,
    ): Promise<GenerateSegmentsResponse> {
      const { log } = context;
      const scope = await ai.begin({
        userId: context.userId,
        tool: 'campaign-audience-builder',
        input: { campaignId: request.campaignId, topic: request.topic, crm: crm.provider },
        log,
      });
      try {
        const read = await fromCrm(log, 'read a campaign', () =>
          crm.campaignFacts(request.campaignId, FACTS),
        );
        if (!read) throw new AppError(404, 'not_found', noSuchCampaign(request.campaignId));
        const { facts, vocabulary } = read;
        const answer = await askModel(scope, facts, vocabulary, request.topic, context);
        const chosen = {
          subIndustries: keepKnown(answer.object.subIndustries, vocabulary.subIndustries),
          roles: keepKnown(answer.object.roles, vocabulary.roles),
          titles: keepKnown(answer.object.titles, vocabulary.titles),
          workAreas: keepKnown(answer.object.workAreas, vocabulary.workAreas),
          employeeBands: keepBands(
            answer.object.employeeBands,
            'employeeBands',
            vocabulary.employeeBands,
            facts.revenueCurrency,
          ),
          revenueBands: keepBands(
            answer.object.revenueBands,
            'revenueBands',
            vocabulary.revenueBands,
            facts.revenueCurrency,
          ),
          campaigns: keepKnown(
            answer.object.campaignIds,
            facts.pastCampaigns.map((c) => c.id),
          ),
        };
        const dropped = Object.fromEntries(
          Object.entries(chosen)
            .filter(([, { dropped }]) => dropped.length > 0)
            .map(([kind, { dropped }]) => [kind, dropped]),
        );
        if (Object.keys(dropped).length > 0) {
          log.warn(
            { tool: 'campaign-audience-builder', dropped },
            'the model chose values the CRM does not have; dropped',
          );
        }
        const segment: Segment = {
          subIndustries: chosen.subIndustries.kept,
          roles: chosen.roles.kept,
          titles: chosen.titles.kept,
          workAreas: chosen.workAreas.kept,
          employeeBands: chosen.employeeBands.kept as Segment['employeeBands'],
          revenueBands: chosen.revenueBands.kept as Segment['revenueBands'],
        };
        const pastCampaigns = chosen.campaigns.kept.flatMap((id) =>
          facts.pastCampaigns.filter((c) => c.id === id),
        );
        const reports = await reportsOf(
          facts,
          segment,
          pastCampaigns.map((c) => c.id),
          log,
        );

        const response: GenerateSegmentsResponse = {
          explanation: answer.object.explanation.trim(),
          ...segment,
          campaigns: pastCampaigns.map((c) => ({
            name: c.name,
            objective: c.objective ?? '',
            lineOfService: c.lineOfService ?? '',
          })),
          subIndustriesString: joined(segment.subIndustries),
          rolesString: joined(segment.roles),
          titlesString: joined(segment.titles),
          workAreasString: joined(segment.workAreas),
          approach: answer.object.approach.trim(),
          reports,
          analysis: checkAnalysis(answer.object, facts),
          facts,
          crm: crm.provider,
          sample: crm.sample,
          // The built-in stand-in's answer is an example: the page and the record say so.
          ...(scope.model.provider === 'demo' ? { demo: true as const } : {}),
        };
        // The record keeps the figures that contradict the CRM, not the whole checked text.
        const { facts: _facts, analysis, ...recorded } = response;
        await scope.end({
          outcome: 'succeeded',
          output: { ...recorded, dropped, contradicted: contradictionsIn(analysis) },
          usage: answer.usage,
          model: answer.model,
        });
        return response;
      } catch (err) {
        if (err instanceof LlmError) {
          await scope.fail(err);
          throw toAppError(err);
        }
        // Recorded with why: the CRM failed, no such campaign, or an error of GEM's own.
        const errorCode =
          err instanceof AppError
            ? err.code === 'not_found'
              ? 'campaign_not_found'
              : err.code
            : 'internal_error';
        await scope.end({ outcome: 'failed', errorCode });
        throw err;
      }
    },

    /** A page of a report's contacts (the embedded CRM's report page). */
    async report(query: ReportQuery, { userId, log }: ReportContext): Promise<ReportResponse> {
      const lease = await reportLease(userId, 'page');
      try {
        const heading = await reportHeading(query, log);
        const page = await fromCrm(log, 'list a report', () =>
          crm.reportContacts(heading.report, {
            offset: (query.page - 1) * REPORT_PAGE_SIZE,
            limit: REPORT_PAGE_SIZE,
          }),
        );
        if (page === null) throw new AppError(404, 'not_found', REPORTS_IN_SALESFORCE);
        return {
          type: query.type,
          title: heading.title,
          description: heading.description,
          campaign: heading.campaign,
          segment: heading.segment,
          revenueCurrency: crm.revenueCurrency,
          total: page.total,
          page: query.page,
          pageSize: REPORT_PAGE_SIZE,
          contacts: page.contacts,
          sample: crm.sample,
        };
      } finally {
        await lease.release();
      }
    },

    /**
     * The whole report as a CSV file (up to CSV_MAX_ROWS contacts), streamed a page at a time;
     * the user's lease is held until the stream closes.
     */
    async reportCsv(
      query: ReportQuery,
      { userId, log }: ReportContext,
    ): Promise<{ fileName: string; body: Readable }> {
      const lease = await reportLease(userId, 'export');
      try {
        const heading = await reportHeading(query, log);
        const pages = crm.reportPages(heading.report, { pageSize: EXPORT_PAGE_SIZE });
        if (pages === null) throw new AppError(404, 'not_found', REPORTS_IN_SALESFORCE);
        return {
          fileName: reportFileName(heading.campaign, query.type),
          body: csvStream(csvChunks(heading.report, pages, log), lease, log),
        };
      } catch (err) {
        await lease.release();
        throw err;
      }
    },
  };
}

/** e.g. "webinar-cfo-2026-new-prospects.csv": the campaign's name in ASCII letters and digits. */
export function reportFileName(campaign: CampaignSummary, type: ReportType): string {
  const base = campaign.name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join('-')
    .slice(0, 60);
  return `${base || campaign.id}-${type}.csv`;
}

export type CampaignAudienceBuilder = ReturnType<typeof createCampaignAudienceBuilder>;
