import {
  AUDIENCE_REPORT_PAGE,
  CAMPAIGN_ID_ERROR,
  campaignAudienceBuilderPaths as paths,
  campaignsResponseSchema,
  generateSegmentsResponseSchema,
  reportQueryEntries,
  reportResponseSchema,
  type CampaignSummary,
  type GenerateSegmentsResponse,
} from '@gem/contracts/campaign-audience-builder';
import type { RecordedRequest } from '@gem/test-servers/scripted-replies';
import { offeredValues, segmentsReply, SEGMENTS_SCHEMA_NAME } from '@gem/test-servers/segment-replies';
import { desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorOf, systemOf, useAiHarness, userOf } from '../../../test/ai-harness';
import { generations } from '../../db/schema/index';
import { percent, repairRequest } from './campaign-audience-builder.prompts';
import { noSuchCampaign } from '../../lib/crm-calls';

/**
 * The campaign audience builder over HTTP on the embedded demo CRM: the real AI adapter against
 * the OpenAI-compatible test server (structured output as a JSON schema and as a tool call), the
 * real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set).
 */

const t = useAiHarness();
const USER = 'marta';
let campaigns: CampaignSummary[];
/** The first generation's request: what the model was offered for the test campaign. */
let offeredRequest: RecordedRequest;

async function get(url: string, user = USER) {
  return t.main.inject({ method: 'GET', url, headers: { authorization: await t.bearer(user) } });
}

async function generate(payload: object, app = t.main) {
  return app.inject({
    method: 'POST',
    url: paths.generate,
    headers: { authorization: await t.bearer(USER) },
    payload,
  });
}

const goal = 'Więcej dyrektorów finansowych ze średnich firm produkcyjnych na webinarze.';

/** A campaign whose type has past campaigns (the seed has several of each type). */
const campaign = () => campaigns[0]!;

/** The test campaign's facts, as a generation (with the test server's answer) shows them. */
async function campaignFacts() {
  const res = await generate({ campaignId: campaign().id, topic: goal });
  return generateSegmentsResponseSchema.parse(res.json()).facts;
}

async function latestRecord() {
  const [row] = await t.database.db
    .select()
    .from(generations)
    .where(eq(generations.generator, 'campaign-audience-builder'))
    .orderBy(desc(generations.createdAt))
    .limit(1);
  return row!;
}

beforeAll(async () => {
  const res = await get(paths.campaigns);
  expect(res.statusCode).toBe(200);
  campaigns = campaignsResponseSchema.parse(res.json()).campaigns;
}, 120_000);

describe('the campaign picker', () => {
  it('lists the demo CRM’s most recent campaigns, marked as sample data', async () => {
    const res = await get(paths.campaigns);
    const body = campaignsResponseSchema.parse(res.json());
    expect(body).toMatchObject({ crm: 'embedded', sample: true });
    expect(body.campaigns.length).toBeGreaterThan(5);
    for (const c of body.campaigns) expect(c.id).toMatch(/^[a-z0-9]{18}$/i);
    const dates = body.campaigns.map((c) => c.startDate ?? '');
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('finds campaigns by part of the name, in any case, and by id', async () => {
    const word = campaign()
      .name.split(/\s+/)
      .find((w) => w.length > 3)!;
    const byName = campaignsResponseSchema.parse(
      (await get(`${paths.campaigns}?q=${encodeURIComponent(word.toUpperCase())}`)).json(),
    );
    expect(byName.campaigns.map((c) => c.id)).toContain(campaign().id);
    const byId = campaignsResponseSchema.parse((await get(`${paths.campaigns}?q=${campaign().id}`)).json());
    expect(byId.campaigns.map((c) => c.id)).toEqual([campaign().id]);
    const none = campaignsResponseSchema.parse(
      (await get(`${paths.campaigns}?q=${encodeURIComponent("%' OR 1=1 --")}`)).json(),
    );
    expect(none.campaigns).toEqual([]);
  });
});

describe('generating segments', () => {
  let result: GenerateSegmentsResponse;

  it('sends the facts and the goal, offers only the CRM’s values, and answers the spec’s result', async () => {
    const res = await generate({ campaignId: campaign().id, topic: `  ${goal}  ` });
    expect(res.statusCode, res.body).toBe(200);
    result = generateSegmentsResponseSchema.parse(res.json());

    const request = t.ai.requests[0]!;
    offeredRequest = request;
    expect(request.structured).toMatchObject({ mode: 'json-schema', name: SEGMENTS_SCHEMA_NAME });
    expect(systemOf(request)).toContain('po polsku');
    expect(userOf(request)).toContain(goal);
    expect(userOf(request)).toContain(campaign().name);
    // The lists are enums of the CRM's values; the facts' values are among them.
    const offered = offeredValues(request.structured!.schema, 'subIndustries', 1_000);
    expect(offered.length).toBeGreaterThan(3);
    for (const v of result.facts.bySubIndustry) expect(offered).toContain(v.value);

    // The test server answers with the first value each list offers: it comes back, joined for CRM filters.
    expect(result.subIndustries).toEqual(offered.slice(0, 1));
    expect(result.titles).toEqual(offeredValues(request.structured!.schema, 'titles', 1));
    expect(result.subIndustriesString).toBe(result.subIndustries.join(', '));
    expect(result.titlesString).toBe(result.titles.join(', '));
    expect(result.explanation.length).toBeGreaterThan(0);
    // Recommended campaigns are real past campaigns of the same type.
    const past = new Map(result.facts.pastCampaigns.map((c) => [c.name, c]));
    expect(result.campaigns.length).toBeGreaterThan(0);
    for (const c of result.campaigns) expect(past.has(c.name)).toBe(true);
    expect(result).toMatchObject({ crm: 'embedded', sample: true });
    // A real service's answer is no demo (campaign-audience-builder.demo.test.ts: the stand-in's is).
    expect(result.demo).toBeUndefined();
    expect(result.facts.members).toBeGreaterThan(0);
    expect(result.facts.members).toBe(
      result.facts.byIndustry.reduce((sum, v) => sum + v.responders + v.nonResponders, 0),
    );
  });

  it('builds a report per type with its reach, each opening GEM’s own report page', async () => {
    expect(result.reports.map((r) => r.type)).toEqual(['new-prospects', 'follow-up', 'past-responders']);
    for (const report of result.reports) {
      expect(report.url.startsWith(`${AUDIENCE_REPORT_PAGE}?`)).toBe(true);
      expect(report.reach).toEqual(expect.any(Number));
      const query = new URL(report.url, 'http://gem.test').search;
      const page = reportResponseSchema.parse((await get(`${paths.report}${query}`)).json());
      expect(page.total).toBe(report.reach);
      expect(page.title).toBe(report.title);
      expect(page.campaign.id).toBe(campaign().id);
      expect(page.contacts.length).toBe(Math.min(page.total, page.pageSize));
    }
  });

  it('downloads a report as a CSV file with a header row and one row per contact', async () => {
    const report = result.reports[0]!;
    const query = new URL(report.url, 'http://gem.test').search;
    const res = await get(`${paths.reportCsv}${query}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="[a-z0-9-]+-new-prospects\.csv"$/,
    );
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Contact ID,Name,E-mail,Title,Account ID,Account,Industry,Sub-industry,Employees,Annual revenue,Last response,Responded on',
    );
    expect(lines).toHaveLength(report.reach! + 1);
    // The rows carry the CRM's ids and e-mail: the report page's first contact is the first row.
    const [first] = reportResponseSchema.parse((await get(`${paths.report}${query}`)).json()).contacts;
    expect(first).toMatchObject({
      id: expect.stringMatching(/^003\w{15}$/),
      accountId: expect.stringMatching(/^001\w{15}$/),
      email: expect.stringMatching(/^[^@\s]+@[^@\s]+\.example$/),
    });
    expect(lines[1]!.startsWith(`${first!.id},`)).toBe(true);
    expect(lines[1]).toContain(`,${first!.email},`);
    expect(lines[1]).toContain(`,${first!.accountId},`);
  });

  it('records the generation with the user, the input and the output', async () => {
    const row = await latestRecord();
    expect(row).toMatchObject({ outcome: 'succeeded' });
    expect(row.input).toMatchObject({ campaignId: campaign().id, topic: goal });
    expect(row.output).toMatchObject({ subIndustries: result.subIndustries });
  });

  it('asks as a forced tool call when the service only constrains tool calls', async () => {
    const toolApp = await t.app({ structuredOutput: 'tool' });
    const res = await generate({ campaignId: campaign().id, topic: goal }, toolApp);
    expect(res.statusCode, res.body).toBe(200);
    expect(t.ai.requests[0]!.structured).toMatchObject({ mode: 'tool', name: SEGMENTS_SCHEMA_NAME });
    expect(generateSegmentsResponseSchema.parse(res.json()).subIndustries.length).toBeGreaterThan(0);
  });
});

describe('company size', () => {
  it('offers the employee and revenue bands the CRM has as enums, and shows the model the members by size', async () => {
    const schema = offeredRequest.structured!.schema;
    expect(offeredValues(schema, 'employeeBands', 10)).toEqual(['1-49', '50-249', '250-999', '1000+']);
    expect(offeredValues(schema, 'revenueBands', 10)).toEqual([
      '0-10M',
      '10M-50M',
      '50M-250M',
      '250M-1B',
      '1B+',
    ]);
    const user = userOf(offeredRequest);
    expect(user).toContain('Wielkość firm: liczba pracowników');
    expect(user).toContain('Wielkość firm: roczne przychody w PLN');
    expect(user).toMatch(/- "50-249": \d+ z \d+, \d+,\d%/);
  });

  it('narrows the segment to the model’s bands (keys or labels), and its reports and CSV to companies of that size', async () => {
    const reply = segmentsReply(offeredRequest);
    t.ai.enqueue({
      kind: 'object',
      value: {
        ...reply,
        subIndustries: [],
        roles: [],
        titles: [],
        workAreas: ['Finance'],
        employeeBands: ['50–249 employees', '50-249'],
        revenueBands: ['PLN 10M–50M', '50m-250m', 'średnie'],
      },
    });
    const res = await generate({ campaignId: campaign().id, topic: goal });
    expect(res.statusCode, res.body).toBe(200);
    const body = generateSegmentsResponseSchema.parse(res.json());
    expect(body.employeeBands).toEqual(['50-249']);
    expect(body.revenueBands).toEqual(['10M-50M', '50M-250M']);
    expect(body.facts.revenueCurrency).toBe('PLN');
    expect(body.facts.byEmployees.map((v) => v.value)).toEqual(['1-49', '50-249', '250-999', '1000+']);
    expect((await latestRecord()).output).toMatchObject({ dropped: { revenueBands: ['średnie'] } });

    const report = body.reports.find((r) => r.type === 'new-prospects')!;
    expect(report.description).toContain('companies of 50–249 employees');
    expect(report.description).toContain('annual revenue PLN 10M–50M, PLN 50M–250M)');
    const query = new URL(report.url, 'http://gem.test').searchParams;
    expect(query.getAll('employees')).toEqual(['50-249']);
    expect(query.getAll('revenue')).toEqual(['10M-50M', '50M-250M']);

    const page = reportResponseSchema.parse((await get(`${paths.report}?${query}`)).json());
    expect(page.total).toBe(report.reach);
    expect(page.total).toBeGreaterThan(0);
    expect(page.segment).toMatchObject({ employeeBands: ['50-249'], revenueBands: ['10M-50M', '50M-250M'] });
    expect(page.revenueCurrency).toBe('PLN');
    for (const c of page.contacts) {
      expect(c.employees).toBeGreaterThanOrEqual(50);
      expect(c.employees).toBeLessThan(250);
      expect(c.annualRevenue).toBeGreaterThanOrEqual(10_000_000);
      expect(c.annualRevenue).toBeLessThan(250_000_000);
    }

    const csv = await get(`${paths.reportCsv}?${query}`);
    const [header, ...rows] = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    const columns = header!.split(',');
    expect(columns).toContain('Employees');
    expect(columns).toContain('Annual revenue');
    expect(rows).toHaveLength(page.total);
    // No cell of these rows holds a comma or a quote: split plainly.
    const cells = rows.map((row) => row.split(','));
    const employees = cells.map((r) => Number(r[columns.indexOf('Employees')]));
    const revenue = cells.map((r) => Number(r[columns.indexOf('Annual revenue')]));
    expect(employees.every((n) => n >= 50 && n < 250)).toBe(true);
    expect(revenue.every((n) => n >= 10_000_000 && n < 250_000_000)).toBe(true);
  });

  it('refuses a report link with a band that does not exist, naming it', async () => {
    const query = new URLSearchParams(
      reportQueryEntries({
        type: 'new-prospects',
        campaignId: campaign().id,
        segment: { subIndustries: [], roles: [], titles: [], workAreas: [] },
        pastCampaignIds: [],
      }),
    );
    query.append('employees', '50-500');
    const res = await get(`${paths.report}?${query}`);
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(errorOf(res))).toContain(
      'Each employee band must be one of 1-49, 50-249, 250-999, 1000+.',
    );
  });
});

describe('what the model may get wrong', () => {
  it('drops values the CRM does not have, keeps the CRM’s spelling of the rest, and records what it dropped', async () => {
    const reply = segmentsReply(offeredRequest);
    const [first] = reply.subIndustries as string[];
    t.ai.enqueue({
      kind: 'object',
      value: {
        ...reply,
        subIndustries: ['Wymyślona podbranża', first!.toUpperCase(), first],
        campaignIds: ['a0B000000000000XYZ'],
      },
    });
    const res = await generate({ campaignId: campaign().id, topic: goal });
    expect(res.statusCode, res.body).toBe(200);
    const body = generateSegmentsResponseSchema.parse(res.json());
    expect(body.subIndustries).toEqual([first]);
    expect(body.campaigns).toEqual([]);
    expect(body.reports.map((r) => r.type)).toEqual(['new-prospects', 'follow-up']);
    expect((await latestRecord()).output).toMatchObject({
      dropped: { subIndustries: ['Wymyślona podbranża'], campaigns: ['a0B000000000000XYZ'] },
    });
  });

  it('checks the analysis’s figures against the facts, marks a wrong one, and records it', async () => {
    const reply = segmentsReply(offeredRequest);
    const group = (await campaignFacts()).bySubIndustry[0]!;
    const members = group.responders + group.nonResponders;
    const right = `${group.responders} z ${members}`;
    t.ai.enqueue({
      kind: 'object',
      value: {
        ...reply,
        explanation: `W podbranży ${group.value} odpowiedziało ${right} uczestników (97,3%).`,
        approach: `Zacznij od ${group.value}: ${percent(group.responders, members)} odpowiedzi.`,
      },
    });
    const res = await generate({ campaignId: campaign().id, topic: goal });
    expect(res.statusCode, res.body).toBe(200);
    const { analysis } = generateSegmentsResponseSchema.parse(res.json());
    const fact = { subject: group.value, members, responders: group.responders };
    expect(analysis.language).toBe('pl');
    expect(analysis.explanation.paragraphs[0]![0]!.figures).toEqual([
      { start: expect.any(Number), end: expect.any(Number), verdict: 'matches', fact },
      { start: expect.any(Number), end: expect.any(Number), verdict: 'contradicts', fact },
    ]);
    expect(analysis.approach.paragraphs[0]![0]!.figures).toEqual([
      expect.objectContaining({ verdict: 'matches', fact }),
    ]);
    expect((await latestRecord()).output).toMatchObject({ contradicted: [{ stated: '97,3%', fact }] });
  });

  it('asks once more after invalid JSON or a wrong shape, then answers', async () => {
    t.ai.enqueue({ kind: 'raw-json', text: '{"explanation": "Niedokończ' });
    t.ai.enqueue({ kind: 'object', value: segmentsReply(offeredRequest) });
    const res = await generate({ campaignId: campaign().id, topic: goal });
    expect(res.statusCode, res.body).toBe(200);
    expect(t.ai.requests).toHaveLength(2);
    // The repair shows the model its answer and says what is wrong with it.
    const asked = t.ai.requests[0]!.body.messages!;
    expect(t.ai.requests[1]!.body.messages).toEqual([
      ...asked,
      { role: 'assistant', content: '{"explanation": "Niedokończ' },
      {
        role: 'user',
        content: repairRequest({
          path: '',
          message: 'The JSON object is not closed: the answer ends inside it.',
        }),
      },
    ]);
  });

  it('fails with words after two unusable answers, and records the failure', async () => {
    t.ai.enqueue({ kind: 'object', value: { explanation: 42 } });
    t.ai.enqueue({ kind: 'object', value: { subIndustries: 'wszystkie' } });
    const res = await generate({ campaignId: campaign().id, topic: goal });
    expect(res.statusCode).toBe(502);
    expect(errorOf(res)).toMatchObject({ code: 'ai_unavailable' });
    expect(await latestRecord()).toMatchObject({ outcome: 'failed', errorCode: 'invalid_output' });
  });

  it('gives up on a stalled answer at the timeout', async () => {
    const quick = await t.app({ timeoutMs: 400, maxRetries: 0 });
    t.ai.enqueue({ kind: 'stall', text: '{"explanation": "Najlep', afterTokens: 2 });
    const res = await generate({ campaignId: campaign().id, topic: goal }, quick);
    expect(res.statusCode).toBe(504);
    expect(errorOf(res)).toMatchObject({ code: 'ai_timeout' });
  });
});

describe('bad input', () => {
  it('says that no campaign has an id of the right shape that is not in the CRM', async () => {
    const id = 'a0B5g00000ZZZZZZZZ';
    const res = await generate({ campaignId: id, topic: goal });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res)).toMatchObject({ code: 'not_found', message: noSuchCampaign(id) });
    expect(t.ai.requests).toHaveLength(0);
    expect(await latestRecord()).toMatchObject({ outcome: 'failed', errorCode: 'campaign_not_found' });
  });

  it.each([
    ['17 characters', { campaignId: 'a0B5g00000ZZZZZZZ', topic: goal }, CAMPAIGN_ID_ERROR],
    ['punctuation', { campaignId: "a0B5g00000ZZZZZ'--", topic: goal }, CAMPAIGN_ID_ERROR],
    ['a blank goal', { campaignId: 'a0B5g00000ZZZZZZZZ', topic: '   ' }, 'The marketing goal is empty.'],
    ['no goal', { campaignId: 'a0B5g00000ZZZZZZZZ' }, 'topic'],
  ])('refuses %s with a 400 that says what is wrong', async (_, payload, words) => {
    const res = await generate(payload);
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(errorOf(res))).toContain(words);
    expect(t.ai.requests).toHaveLength(0);
  });

  it('refuses a report link that was tampered with', async () => {
    const entries = reportQueryEntries({
      type: 'new-prospects',
      campaignId: campaign().id,
      segment: { subIndustries: [], roles: [], titles: [], workAreas: [] },
      pastCampaignIds: [],
    });
    const query = new URLSearchParams(entries);
    query.set('type', 'everyone');
    const res = await get(`${paths.report}?${query}`);
    expect(res.statusCode).toBe(400);
    query.set('type', 'follow-up');
    query.set('campaignId', 'a0B5g00000ZZZZZZZZ');
    const missing = await get(`${paths.report}?${query}`);
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing).message).toBe(noSuchCampaign('a0B5g00000ZZZZZZZZ'));
  });

  it('answers 503 ai_not_configured without an AI service, before reading the CRM', async () => {
    const noAi = await t.app({ service: null });
    const res = await generate({ campaignId: campaign().id, topic: goal }, noAi);
    expect(res.statusCode).toBe(503);
    expect(errorOf(res)).toMatchObject({ code: 'ai_not_configured' });
  });
});
