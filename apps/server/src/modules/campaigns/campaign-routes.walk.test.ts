import {
  campaignAssetDetailsSchema,
  campaignAssetPath,
  campaignAssetsPath,
  campaignAssetsPaths,
  campaignGenerateAllPath,
} from '@gem/contracts/campaign-assets';
import {
  campaignAudiencePath,
  campaignAudiencePaths,
  campaignAudienceResponseSchema,
  campaignSegmentPath,
} from '@gem/contracts/campaign-audience';
import {
  campaignAudienceBuilderPaths,
  campaignsResponseSchema as crmCampaignsResponseSchema,
} from '@gem/contracts/campaign-audience-builder';
import { campaignPackPath, campaignPackPaths, campaignPackSchema } from '@gem/contracts/campaign-pack';
import {
  campaignSourcePath,
  campaignSourceSchema,
  campaignSourcesPath,
  campaignSourcesPaths,
  campaignSourcesResponseSchema,
} from '@gem/contracts/campaign-sources';
import {
  campaignActivityPath,
  campaignBriefPath,
  campaignDuplicatePath,
  campaignEditorPath,
  campaignEditorsPath,
  campaignPath,
  campaignSchema,
  campaignsPaths,
  campaignsResponseSchema,
  type Campaign,
} from '@gem/contracts/campaigns';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app';
import { PERMITTED_DOMAIN, startAiHarness, type AiToolsTest } from '../../../test/ai-harness';
import { buildTestApp, externalAuth } from '../../../test/test-app';
import { testConfig } from '../../../test/test-config';
import { CAMPAIGN_NOT_FOUND, OWNER_ONLY, READ_ONLY } from './campaigns.access';
import { campaignCalls } from './campaigns.test-support';

/**
 * Issue 29: authorization on the server for every route. One walk over every route the real app
 * registers under /api/campaigns (collected with buildTestApp's onRoute, so a new route without a
 * row here fails the walk), as another marketer while the campaign is private, as a reader once
 * it is shared with the team, as an editor the owner added by e-mail, and as the owner: each
 * refusal is the status campaigns.access.ts gives (404 to whoever may not see the campaign, 403
 * to whoever may see but not do it) and says nothing of the campaign; each allowed call really
 * succeeds. Ids of another campaign's segment or source in this campaign's path find nothing,
 * and the pack a reader gets holds the approved assets only.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Person = 'stranger' | 'reader' | 'editor' | 'owner';
/** The least a person needs: 'any' signed-in user, or a role in the campaign (campaigns.access.ts). */
type Least = 'any' | 'read' | 'edit' | 'own';
type Res = Awaited<ReturnType<App['inject']>>;
type Request = { url: string; payload?: object };

type Row = {
  /** METHOD and the path as registered, e.g. `GET /api/campaigns/:campaignId`. */
  route: string;
  least: Least;
  /** What this row calls, when one route has more than one (PATCH with or without sharing). */
  as?: string;
  /** The request as `who`, valid in body and ids, so a refusal is authorization, not validation. */
  request: (who: Person) => Promise<Request> | Request;
  /** The status of an allowed call (200 unless said). */
  ok?: number;
  /** What an allowed call must also show. */
  check?: (res: Res, who: Person) => void;
  /** Whoever may not do it gets a 404 with this message rather than a 403 (a thing of the owner's own). */
  hiddenAs?: string;
};

const people: Record<Person, string> = {
  owner: 'walk-owner',
  stranger: 'walk-stranger',
  reader: 'walk-reader',
  editor: 'walk-editor',
};
/** Someone the owner adds and takes off again in the walk (never the editor). */
const extra = 'walk-extra';

/** The words the campaign is made of: none may be in what another user is refused. */
const secrets = {
  name: 'Walk: Forum płynności Lublin 2027',
  brief: 'Płynność finansowa bez tajemnic dla zarządów z Lublina.',
  approved: 'Zatwierdzony post: forum płynności w Lublinie.',
  draft: 'Szkic artykułu właściciela, nie do paczki.',
  source: 'PwC: Raport o płynności lubelskich firm',
  segment: 'Uczestnicy forum w Lublinie',
};
const everyone = {
  subIndustries: [],
  roles: [],
  titles: [],
  workAreas: [],
  employeeBands: [],
  revenueBands: [],
};

const harness = {} as AiToolsTest;
const registered: { method: string; url: string }[] = [];
const { call, finishedBrief, openCampaign } = campaignCalls(harness);

beforeAll(async () => {
  Object.assign(harness, await startAiHarness());
  // The app as useAiHarness builds it (ai-harness.ts), with the routes it registers collected.
  const base = testConfig();
  const config = testConfig({
    auth: externalAuth(harness.issuer.issuer),
    access: { ...base.access, allowedDomains: [PERMITTED_DOMAIN] },
    ai: {
      ...base.ai,
      service: {
        provider: 'openai-compatible',
        model: 'gem-test-model',
        baseUrl: harness.ai.url,
        apiKey: 'test-key',
      },
      timeoutMs: 5_000,
      retryBaseDelayMs: 10,
      limits: { perMinute: 1_000, concurrent: 50 },
    },
  });
  harness.main = await buildTestApp({
    config,
    database: harness.database,
    onRoute: (route: RouteOptions) => {
      for (const method of [route.method].flat()) registered.push({ method, url: route.url });
    },
  });
  await harness.main.ready();
});
afterAll(async () => {
  await harness.main?.close();
  await harness.close?.();
});

const ok = (res: Res, what: string, status = 200) => {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
  return res;
};

/** The campaign routes the app registers (HEAD is Fastify's copy of each GET). */
const campaignRoutes = () =>
  [
    ...new Set(
      registered
        .filter(({ method, url }) => method !== 'HEAD' && /^\/api\/campaigns(?:\/|$)/.test(url))
        .map(({ method, url }) => `${method} ${url}`),
    ),
  ].sort();

const lastLine = (body: string) =>
  JSON.parse(
    body
      .trim()
      .split('\n')
      .filter((l) => l.trim() !== '')
      .at(-1) ?? 'null',
  ) as Record<string, unknown> | null;

describe('every campaign route, walked as another user, a reader, an editor and the owner', () => {
  let campaign: Campaign;
  let other: Campaign;
  let briefId = '';
  let segmentId = '';
  let sourceId = '';
  let otherSegmentId = '';
  let otherSourceId = '';
  let crmSourceId = '';
  let n = 0;

  const report = () => ({
    type: 'follow-up',
    campaignId: crmSourceId,
    segment: everyone,
    pastCampaignIds: [],
  });
  const current = async () =>
    campaignSchema.parse(ok(await call('GET', campaignPath(campaign.id), people.owner), 'campaign').json());
  const addSource = async (user: string, campaignId: string, title: string, page: string) =>
    campaignSourceSchema.parse(
      ok(
        await call('POST', campaignSourcesPath(campaignId), user, {
          kind: 'competitor',
          link: `https://www.pwc.pl/pl/raporty/${page}.html`,
          title,
          snippet: 'Co trzecia firma planuje inwestycje.',
        }),
        'source',
      ).json(),
    ).id;
  const saveSegment = async (user: string, campaignId: string, label: string) =>
    campaignAudienceResponseSchema
      .parse(
        ok(
          await call('POST', campaignAudiencePath(campaignId), user, {
            label,
            report: report(),
            reportUrl: null,
          }),
          'segment',
        ).json(),
      )
      .segments.find((s) => s.label === label)!.id;
  const extraId = async () => {
    const added = ok(
      await call('POST', campaignEditorsPath(campaign.id), people.owner, { email: `${extra}@gem.example` }),
      'extra editor',
    );
    return campaignSchema.parse(added.json()).editors.find((e) => e.name === extra)!.id;
  };

  const assetPaths = campaignAssetsPaths;
  /** The table: every campaign route, the least it needs and a valid call. */
  const table: Row[] = [
    {
      route: `GET ${campaignsPaths.campaigns}`,
      least: 'any',
      request: () => ({ url: campaignsPaths.campaigns }),
      check: (res, who) => {
        const ids = campaignsResponseSchema.parse(res.json()).campaigns.map((c) => c.id);
        if (who === 'stranger') {
          expect(ids).not.toContain(campaign.id);
          for (const secret of Object.values(secrets)) expect(res.body).not.toContain(secret);
        } else expect(ids).toContain(campaign.id);
      },
    },
    {
      route: `POST ${campaignsPaths.campaigns}`,
      least: 'own',
      hiddenAs: 'Brief not found.',
      // The owner's finished brief: opening it again finds the same campaign.
      request: () => ({ url: campaignsPaths.campaigns, payload: { finishedBriefId: briefId } }),
      check: (res) => expect(campaignSchema.parse(res.json()).id).toBe(campaign.id),
    },
    {
      route: `GET ${campaignsPaths.campaign}`,
      least: 'read',
      request: () => ({ url: campaignPath(campaign.id) }),
      check: (res, who) => expect(campaignSchema.parse(res.json()).role).toBe(who),
    },
    {
      route: `PATCH ${campaignsPaths.campaign}`,
      least: 'edit',
      as: 'status',
      request: () => ({ url: campaignPath(campaign.id), payload: { status: 'active' } }),
    },
    {
      route: `PATCH ${campaignsPaths.campaign}`,
      least: 'edit',
      as: 'QR code',
      request: (who) => ({
        url: campaignPath(campaign.id),
        payload: { qr: { size: who === 'owner' ? 300 : 250, padding: 8, dpi: 300 } },
      }),
      check: (res, who) =>
        expect(campaignSchema.parse(res.json()).qr).toEqual({
          size: who === 'owner' ? 300 : 250,
          padding: 8,
          dpi: 300,
        }),
    },
    {
      route: `PATCH ${campaignsPaths.campaign}`,
      least: 'own',
      as: 'sharing',
      request: (who) => ({
        url: campaignPath(campaign.id),
        // The owner keeps it as it is at its turn: shared with the team.
        payload: { sharing: who === 'owner' ? 'team' : 'private' },
      }),
    },
    {
      route: `GET ${campaignsPaths.campaignBrief}`,
      least: 'read',
      request: () => ({ url: campaignBriefPath(campaign.id) }),
    },
    {
      route: `PUT ${campaignsPaths.campaignBrief}`,
      least: 'edit',
      request: async () => {
        const now = await current();
        return {
          url: campaignBriefPath(campaign.id),
          payload: { brief: now.brief, baseVersion: now.briefVersion },
        };
      },
    },
    {
      route: `GET ${campaignsPaths.campaignActivity}`,
      least: 'read',
      request: () => ({ url: campaignActivityPath(campaign.id) }),
    },
    {
      route: `POST ${campaignsPaths.campaignDuplicate}`,
      least: 'read',
      ok: 201,
      request: () => ({ url: campaignDuplicatePath(campaign.id) }),
      check: (res, who) =>
        expect(campaignSchema.parse(res.json())).toMatchObject({
          role: 'owner',
          duplicatedFrom: campaign.id,
          owner: { name: people[who] },
        }),
    },
    {
      route: `POST ${campaignsPaths.campaignEditors}`,
      least: 'own',
      request: () => ({ url: campaignEditorsPath(campaign.id), payload: { email: `${extra}@gem.example` } }),
    },
    {
      route: `DELETE ${campaignsPaths.campaignEditor}`,
      least: 'own',
      request: async () => ({ url: campaignEditorPath(campaign.id, await extraId()) }),
      check: (res) =>
        expect(campaignSchema.parse(res.json()).editors.map((e) => e.name)).toEqual([people.editor]),
    },
    {
      route: `GET ${assetPaths.assets}`,
      least: 'read',
      request: () => ({ url: campaignAssetsPath(campaign.id) }),
    },
    {
      route: `GET ${assetPaths.asset}`,
      least: 'read',
      request: () => ({ url: campaignAssetPath(campaign.id, 'linkedin-post') }),
      check: (res) => expect(campaignAssetDetailsSchema.parse(res.json()).text).toBe(secrets.approved),
    },
    {
      route: `PUT ${assetPaths.asset}`,
      least: 'edit',
      request: async () => {
        const url = campaignAssetPath(campaign.id, 'article');
        const { version } = campaignAssetDetailsSchema.parse(
          ok(await call('GET', url, people.owner), 'article').json(),
        );
        return { url, payload: { text: `${secrets.draft} (${++n})`, baseVersion: version } };
      },
    },
    {
      route: `PATCH ${assetPaths.asset}`,
      least: 'edit',
      as: 'status',
      request: () => ({ url: campaignAssetPath(campaign.id, 'article'), payload: { status: 'in-review' } }),
    },
    {
      route: `PATCH ${assetPaths.asset}`,
      least: 'edit',
      as: 'UTM tags',
      request: (who) => ({
        url: campaignAssetPath(campaign.id, 'article'),
        payload: { utm: { source: `walk-${who}`, medium: 'social', content: null } },
      }),
      check: (res, who) => expect(res.json()).toMatchObject({ utm: { source: `walk-${who}`, edited: true } }),
    },
    {
      route: `GET ${assetPaths.inputs}`,
      least: 'read',
      request: () => ({ url: `${campaignAssetPath(campaign.id, 'article')}/inputs` }),
    },
    {
      route: `POST ${assetPaths.restore}`,
      least: 'edit',
      request: () => ({
        url: `${campaignAssetPath(campaign.id, 'article')}/restore`,
        payload: { version: 1 },
      }),
    },
    {
      route: `POST ${assetPaths.generate}`,
      least: 'edit',
      request: () => ({ url: `${campaignAssetPath(campaign.id, 'x-post')}/generate`, payload: {} }),
      check: (res) => expect(lastLine(res.body)).toMatchObject({ type: 'final' }),
    },
    {
      route: `POST ${assetPaths.generateAll}`,
      least: 'edit',
      request: () => ({ url: campaignGenerateAllPath(campaign.id) }),
      check: (res) => expect(lastLine(res.body)).toEqual({ type: 'end', saved: 1, failed: 0 }),
    },
    {
      route: `GET ${campaignPackPaths.pack}`,
      least: 'read',
      request: () => ({ url: campaignPackPath(campaign.id) }),
      check: (res) =>
        expect(campaignPackSchema.parse(res.json()).assets.map((a) => a.channel)).toEqual(['linkedin-post']),
    },
    {
      route: `GET ${campaignSourcesPaths.sources}`,
      least: 'read',
      request: () => ({ url: campaignSourcesPath(campaign.id) }),
    },
    {
      route: `POST ${campaignSourcesPaths.sources}`,
      least: 'edit',
      request: () => ({
        url: campaignSourcesPath(campaign.id),
        payload: {
          kind: 'competitor',
          link: 'https://www.pwc.pl/pl/raporty/walk-added.html',
          title: 'PwC: dodane w przejściu',
          snippet: '',
        },
      }),
    },
    {
      route: `DELETE ${campaignSourcesPaths.source}`,
      least: 'edit',
      request: async () => ({
        url: campaignSourcePath(
          campaign.id,
          await addSource(people.owner, campaign.id, `Do usunięcia ${++n}`, `walk-delete-${n}`),
        ),
      }),
      check: (res) =>
        expect(campaignSourcesResponseSchema.parse(res.json()).sources.map((s) => s.title)).not.toContain(
          `Do usunięcia ${n}`,
        ),
    },
    {
      route: `GET ${campaignAudiencePaths.audience}`,
      least: 'read',
      request: () => ({ url: campaignAudiencePath(campaign.id) }),
    },
    {
      route: `POST ${campaignAudiencePaths.audience}`,
      least: 'edit',
      request: () => ({
        url: campaignAudiencePath(campaign.id),
        payload: { label: 'Segment z przejścia', report: report(), reportUrl: null },
      }),
    },
    {
      route: `DELETE ${campaignAudiencePaths.segment}`,
      least: 'edit',
      request: async () => ({
        url: campaignSegmentPath(
          campaign.id,
          await saveSegment(people.owner, campaign.id, `Do usunięcia ${++n}`),
        ),
      }),
    },
    {
      route: `POST ${campaignAudiencePaths.preview}`,
      least: 'edit',
      request: () => ({ url: `${campaignSegmentPath(campaign.id, segmentId)}/preview` }),
    },
    {
      route: `POST ${campaignAudiencePaths.members}`,
      least: 'edit',
      request: () => ({ url: `${campaignSegmentPath(campaign.id, segmentId)}/members` }),
    },
  ];

  const rank: Record<Exclude<Least, 'any'>, Person[]> = {
    read: ['reader', 'editor', 'owner'],
    edit: ['editor', 'owner'],
    own: ['owner'],
  };

  /** The row's call as `who`, checked against what campaigns.access.ts decides. */
  async function walk(row: Row, who: Person) {
    const { url, payload } = await row.request(who);
    const method = row.route.split(' ')[0] as Method;
    const res = await call(method, url, people[who], payload);
    const what = `${row.route}${row.as ? ` (${row.as})` : ''} as the ${who}`;
    const allowed = row.least === 'any' || rank[row.least].includes(who);
    if (allowed) {
      ok(res, what, row.ok ?? 200);
      row.check?.(res, who);
      return;
    }
    const hidden = who === 'stranger' || row.hiddenAs !== undefined;
    expect([what, res.statusCode]).toEqual([what, hidden ? 404 : 403]);
    expect((res.json() as { error: { message: string } }).error.message, what).toBe(
      hidden ? (row.hiddenAs ?? CAMPAIGN_NOT_FOUND) : row.least === 'own' ? OWNER_ONLY : READ_ONLY,
    );
    for (const secret of Object.values(secrets)) expect(res.body, what).not.toContain(secret);
    expect(res.body, what).not.toContain(campaign.owner.id);
  }

  it('has a row for each campaign route the app registers, and registers each route it has a row for', () => {
    const routes = campaignRoutes();
    const rows = [...new Set(table.map((r) => r.route))];
    expect(
      routes.filter((r) => !rows.includes(r)),
      'routes without a row',
    ).toEqual([]);
    expect(
      rows.filter((r) => !routes.includes(r)),
      'rows without a route',
    ).toEqual([]);
  });

  it('is refused to another user as a 404 and to a reader as a 403, saying nothing; the editor is refused the owner’s; each allowed call succeeds', async () => {
    // Everyone signs in once (the owner adds the editor by the e-mail they signed in with).
    for (const user of [...Object.values(people), extra])
      ok(await call('GET', campaignsPaths.campaigns, user), user);

    const crm = crmCampaignsResponseSchema.parse(
      ok(await call('GET', `${campaignAudienceBuilderPaths.campaigns}?q=`, people.owner), 'CRM').json(),
    ).campaigns;
    const target = crm[0]!;
    crmSourceId = crm[1]!.id;

    const data = {
      campaignName: secrets.name,
      campaignType: ['Event'],
      primaryObjective: 'Rejestracje dyrektorów finansowych.',
      keyMessages: secrets.brief,
      channels: ['Email'],
    };
    briefId = await finishedBrief(people.owner, data);
    campaign = campaignSchema.parse(
      ok(
        await call('POST', campaignsPaths.campaigns, people.owner, { finishedBriefId: briefId }),
        'open',
        201,
      ).json(),
    );
    ok(
      await call('PATCH', campaignPath(campaign.id), people.owner, { crmCampaignId: target.id }),
      'CRM campaign',
    );
    // An approved post and a draft article, each generated (the test LLM server) and saved by hand.
    for (const [channel, text, status] of [
      ['linkedin-post', secrets.approved, 'approved'],
      ['article', secrets.draft, 'draft'],
    ] as const) {
      const path = campaignAssetPath(campaign.id, channel);
      const generated = ok(await call('POST', `${path}/generate`, people.owner, {}), `generate ${channel}`);
      expect(lastLine(generated.body)).toMatchObject({ type: 'final' });
      ok(await call('PUT', path, people.owner, { text, baseVersion: 1 }), `save ${channel}`);
      if (status === 'approved')
        ok(await call('PATCH', path, people.owner, { status }), `approve ${channel}`);
    }
    sourceId = await addSource(people.owner, campaign.id, secrets.source, 'walk-lublin');
    segmentId = await saveSegment(people.owner, campaign.id, secrets.segment);

    // Another campaign, the stranger's, with a source and a segment of its own.
    other = await openCampaign(people.stranger, {
      ...data,
      campaignName: 'Walk: kampania obcego',
      keyMessages: 'Przekaz obcego.',
    });
    otherSourceId = await addSource(people.stranger, other.id, 'Źródło obcego', 'walk-other');
    otherSegmentId = await saveSegment(people.stranger, other.id, 'Segment obcego');

    // Private: to another user it does not exist.
    for (const row of table) await walk(row, 'stranger');

    // Shared with the team, read only; then an editor added by e-mail.
    ok(await call('PATCH', campaignPath(campaign.id), people.owner, { sharing: 'team' }), 'share');
    const pack = campaignPackSchema.parse(
      ok(await call('GET', campaignPackPath(campaign.id), people.reader), 'pack as the reader').json(),
    );
    expect(pack.assets.map((a) => [a.channel, a.text])).toEqual([['linkedin-post', secrets.approved]]);
    expect(JSON.stringify(pack)).not.toContain(secrets.draft);
    for (const row of table) await walk(row, 'reader');

    const added = ok(
      await call('POST', campaignEditorsPath(campaign.id), people.owner, {
        email: `${people.editor}@gem.example`,
      }),
      'add the editor',
    );
    expect(campaignSchema.parse(added.json()).editors.map((e) => e.name)).toContain(people.editor);
    for (const row of table) await walk(row, 'editor');
    for (const row of table) await walk(row, 'owner');

    // Nothing the refused calls tried changed it: still shared, the editor still there, the source and segment kept.
    expect(await current()).toMatchObject({ sharing: 'team', editors: [{ name: people.editor }] });
    const sources = campaignSourcesResponseSchema.parse(
      ok(await call('GET', campaignSourcesPath(campaign.id), people.owner), 'sources').json(),
    ).sources;
    expect(sources.map((s) => s.id)).toContain(sourceId);
    const audience = campaignAudienceResponseSchema.parse(
      ok(await call('GET', campaignAudiencePath(campaign.id), people.owner), 'audience').json(),
    );
    expect(audience.segments.map((s) => s.id)).toContain(segmentId);
    // Every route three or four times over, generations among them: 7 s on a quiet machine.
  }, 60_000);

  it('finds nothing through the ids of another campaign, or ids that are not ids', async () => {
    // Another campaign's segment in this campaign's path: not found, and still the other's.
    for (const [method, url] of [
      ['DELETE', campaignSegmentPath(campaign.id, otherSegmentId)],
      ['POST', `${campaignSegmentPath(campaign.id, otherSegmentId)}/preview`],
      ['POST', `${campaignSegmentPath(campaign.id, otherSegmentId)}/members`],
    ] as const) {
      const res = await call(method, url, people.owner);
      expect([method, url, res.statusCode]).toEqual([method, url, 404]);
      expect(res.json()).toMatchObject({ error: { message: 'This campaign has no such segment.' } });
      expect(res.body).not.toContain('Segment obcego');
    }
    // Another campaign's source: removing it here is removing nothing (the route answers a
    // removal of one already gone with the campaign's sources, 200).
    const removed = ok(
      await call('DELETE', campaignSourcePath(campaign.id, otherSourceId), people.owner),
      'the other campaign’s source',
    );
    expect(removed.body).not.toContain('Źródło obcego');
    // An editor id that is not this campaign's editor: nothing removed.
    ok(await call('DELETE', campaignEditorPath(campaign.id, other.owner.id), people.owner), 'not an editor');
    const theirs = await call('GET', campaignSourcesPath(other.id), people.stranger);
    expect(campaignSourcesResponseSchema.parse(theirs.json()).sources.map((s) => s.id)).toEqual([
      otherSourceId,
    ]);
    const theirAudience = campaignAudienceResponseSchema.parse(
      (await call('GET', campaignAudiencePath(other.id), people.stranger)).json(),
    );
    expect(theirAudience.segments.map((s) => s.id)).toEqual([otherSegmentId]);
    // Each campaign's pack holds nothing of the other.
    const ownPack = ok(await call('GET', campaignPackPath(campaign.id), people.owner), 'own pack').body;
    for (const word of ['kampania obcego', 'Źródło obcego']) expect(ownPack).not.toContain(word);
    const otherPack = ok(await call('GET', campaignPackPath(other.id), people.stranger), 'other pack').body;
    for (const secret of Object.values(secrets)) expect(otherPack).not.toContain(secret);
    // This campaign's own ids under the other's path: the other campaign is the owner's stranger.
    expect((await call('GET', campaignPath(other.id), people.owner)).statusCode).toBe(404);

    // Ids that are not ids, as the owner: not found, never a 500.
    const notIds: [Method, string, number][] = [
      ['DELETE', campaignSegmentPath(campaign.id, 'nope'), 404],
      ['POST', `${campaignSegmentPath(campaign.id, 'nope')}/preview`, 404],
      ['DELETE', campaignSourcePath(campaign.id, 'nope'), 200],
      ['DELETE', campaignEditorPath(campaign.id, 'nope'), 200],
      ['GET', `${campaignAssetsPath(campaign.id)}/tiktok`, 400],
    ];
    for (const [method, url, status] of notIds) {
      const res = await call(method, url, people.owner);
      expect([method, url, res.statusCode]).toEqual([method, url, status]);
    }
    // Every campaign route with a campaign id that is not one, or one of no campaign: 404.
    const rows = table.filter((r) => r.route.includes(':campaignId'));
    for (const badId of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      for (const row of rows) {
        const { url, payload } = await row.request('owner');
        const method = row.route.split(' ')[0] as Method;
        const res = await call(method, url.replace(campaign.id, badId), people.owner, payload);
        expect([row.route, badId, res.statusCode]).toEqual([row.route, badId, 404]);
        expect((res.json() as { error: { message: string } }).error.message).toBe(CAMPAIGN_NOT_FOUND);
      }
    }
  });
});
