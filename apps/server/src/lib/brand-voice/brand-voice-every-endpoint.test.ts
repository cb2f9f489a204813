import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { briefCreatorPaths, chatResponseSchema } from '@gem/contracts/brief-creator';
import {
  campaignAudienceBuilderPaths,
  campaignsResponseSchema,
} from '@gem/contracts/campaign-audience-builder';
import {
  campaignAssetPath,
  campaignAssetsPaths,
  campaignGenerateAllPath,
} from '@gem/contracts/campaign-assets';
import { errorResponseSchema } from '@gem/contracts/errors';
import { writingToolPaths, type WritingToolName } from '@gem/contracts/writing-tools';
import { briefChatTurn } from '@gem/test-servers/brief-replies';
import type { RecordedRequest } from '@gem/test-servers/scripted-replies';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessClaims } from '../../../test/test-app';
import {
  brandProfileSample,
  campaignCallsOf,
  sampleInputs,
  systemOf,
  useAiHarness,
} from '../../../test/ai-harness';
import { generations } from '../../db/schema/index';
import { createBrandVoice } from './brand-voice';
import { createInflection } from './inflection';

/**
 * Issue 31, "Applied to every generator": every AI endpoint GEM registers sends the brand profile
 * in force to the model (`<profil_marki wersja="N">` in the system prompt of every model request
 * it makes) and records its version with the generation. The endpoints are walked through the
 * real app against the OpenAI-compatible test server, on a real database. The list walked is
 * held against the route table (every route that answers 503 ai_not_configured without an AI
 * service) and against the code (every caller of ai.begin asks ai.brandFor first), so an AI
 * route added without the profile fails here.
 */

const t = useAiHarness();
const { call, openCampaign } = campaignCallsOf(t);
const inflection = createInflection();
const USER = 'brand-walker';

/** Every AI route this test walks, as `METHOD /pattern`. */
const walked = new Set<string>();

/**
 * The AI routes that read their body before they need the AI service (a bad body is a 400, not
 * a 503): the route-table walk below cannot find them with a probe body, so they are named here
 * and each is shown to need the service with a valid body.
 */
const checksBodyFirst: { route: string; payload: object }[] = [
  { route: `POST ${briefCreatorPaths.chat}`, payload: { message: 'Webinar dla CFO.', language: 'Polish' } },
  {
    route: `POST ${briefCreatorPaths.chatStream}`,
    payload: { message: 'Webinar dla CFO.', language: 'Polish' },
  },
  {
    route: `POST ${campaignAudienceBuilderPaths.generate}`,
    payload: { campaignId: 'a0Bxx0000000001AAA', topic: 'Więcej dyrektorów finansowych.' },
  },
];

const VERSION = 1;
const brandTag = `<profil_marki wersja="${VERSION}">`;

beforeAll(async () => {
  await createBrandVoice({ db: t.database.db, inflection }).save({
    profile: brandProfileSample(),
    basedOn: null,
    userId: null,
    note: 'walk',
  });
}, 60_000);
afterAll(() => inflection.close());

/**
 * Runs `act` (one endpoint's call, or several for one route) and asserts that every model request
 * it made carries the profile in force, and that every generation it recorded holds its version.
 */
async function sendsTheProfile(route: string, act: () => Promise<void>) {
  walked.add(route);
  const requestsBefore = t.ai.requests.length;
  const before = new Set(
    (await t.database.db.select({ id: generations.id }).from(generations)).map((r) => r.id),
  );
  await act();
  const requests: RecordedRequest[] = t.ai.requests.slice(requestsBefore);
  expect(requests.length, `${route} made no model request`).toBeGreaterThan(0);
  for (const request of requests) expect(systemOf(request), route).toContain(brandTag);
  const rows = (
    await t.database.db
      .select({ id: generations.id, tool: generations.generator, brandVersion: generations.brandVersion })
      .from(generations)
  ).filter((row) => !before.has(row.id));
  expect(rows.length, `${route} recorded no generation`).toBeGreaterThan(0);
  for (const row of rows) expect(row, route).toMatchObject({ brandVersion: VERSION });
}

const ok = (res: { statusCode: number; body: string }) => expect(res.statusCode, res.body).toBe(200);
/** An NDJSON body that ends in its final event (or, for Generate all, its end). */
const endsWell = (body: string) => {
  const last = JSON.parse(body.trim().split('\n').at(-1)!) as { type: string };
  expect(['final', 'end'], body).toContain(last.type);
};

describe('every AI endpoint sends the brand profile in force', () => {
  it('the writing tools, each with its own prompt and the profile', async () => {
    for (const name of Object.keys(sampleInputs) as WritingToolName[]) {
      await sendsTheProfile(`POST ${writingToolPaths.generate(name)}`, async () => {
        if (name === 'paid-ads') {
          t.ai.enqueue({
            kind: 'text',
            text: '## Analiza\n\nDyrektorzy finansowi szukają pewności.\n\n## Tekst reklamy\n\nNagłówek: Raport dla CFO',
          });
        }
        const res = await t.generate(name, USER);
        ok(res);
        endsWell(res.body);
      });
    }
  });

  it('the spec §7 calls', async () => {
    await sendsTheProfile(`POST ${writingToolPaths.generatePrompt}`, async () =>
      ok(
        await call('POST', writingToolPaths.generatePrompt, USER, {
          userPrompt: 'Napisz zdanie o raporcie.',
        }),
      ),
    );
    await sendsTheProfile(`POST ${writingToolPaths.summarizePrompt}`, async () =>
      ok(
        await call('POST', writingToolPaths.summarizePrompt, USER, { documentText: 'Długi raport o rynku.' }),
      ),
    );
  });

  it('the brief creator: a chat turn whole and streamed, the target audience and the recommendations', async () => {
    let sessionId = '';
    await sendsTheProfile(`POST ${briefCreatorPaths.chat}`, async () => {
      t.ai.enqueue({
        kind: 'object',
        value: briefChatTurn('Jaki jest budżet?', { campaignName: 'CFO 2027' }, false),
      });
      const res = await call('POST', briefCreatorPaths.chat, USER, {
        message: 'Webinar dla CFO.',
        language: 'Polish',
      });
      ok(res);
      sessionId = chatResponseSchema.parse(res.json()).sessionId;
      t.ai.enqueue({ kind: 'object', value: { targetAudience: 'Dyrektorzy finansowi średnich firm.' } });
      ok(
        await call('POST', briefCreatorPaths.chat, USER, {
          sessionId,
          generateTargetAudience: true,
          language: 'Polish',
        }),
      );
      t.ai.enqueue({ kind: 'object', value: { recommendations: ['Webinar na LinkedIn w marcu.'] } });
      ok(
        await call('POST', briefCreatorPaths.chat, USER, {
          sessionId,
          generateRecommendations: true,
          language: 'Polish',
        }),
      );
    });
    await sendsTheProfile(`POST ${briefCreatorPaths.chatStream}`, async () => {
      t.ai.enqueue({
        kind: 'object',
        value: briefChatTurn('Jaki jest termin?', { budget: '50 000 PLN' }, false),
      });
      const res = await call('POST', briefCreatorPaths.chatStream, USER, {
        sessionId,
        message: 'Budżet 50 000 PLN.',
        language: 'Polish',
      });
      ok(res);
      endsWell(res.body);
    });
  });

  it("a campaign's assets: generated, regenerated, and all at once", async () => {
    const campaign = await openCampaign(USER, {
      campaignName: 'Raport CFO',
      campaignType: ['Webinar'],
      primaryObjective: 'Zapisy na webinar.',
      keyMessages: 'Zamknięcie roku w trzy dni.',
      channels: ['LinkedIn', 'Google Ads'],
    });
    const generate = `${campaignAssetPath(campaign.id, 'linkedin-post')}/generate`;
    await sendsTheProfile(`POST ${campaignAssetsPaths.generate}`, async () => {
      const res = await call('POST', generate, USER, {});
      ok(res);
      endsWell(res.body);
      const again = await call('POST', generate, USER, { instruction: 'Shorter' });
      ok(again);
      endsWell(again.body);
    });
    await sendsTheProfile(`POST ${campaignAssetsPaths.generateAll}`, async () => {
      t.ai.enqueue(
        { kind: 'text', text: 'Raport dla CFO już jest.' },
        {
          kind: 'text',
          text: '## Analiza\n\nCFO szukają pewności.\n\n## Tekst reklamy\n\nNagłówek: Raport dla CFO',
        },
      );
      const res = await call('POST', campaignGenerateAllPath(campaign.id), USER);
      ok(res);
      endsWell(res.body);
    });
  });

  it('the campaign audience builder', async () => {
    const listed = await call('GET', campaignAudienceBuilderPaths.campaigns, USER);
    ok(listed);
    const [first] = campaignsResponseSchema.parse(listed.json()).campaigns;
    await sendsTheProfile(`POST ${campaignAudienceBuilderPaths.generate}`, async () =>
      ok(
        await call('POST', campaignAudienceBuilderPaths.generate, USER, {
          campaignId: first!.id,
          topic: 'Więcej dyrektorów finansowych ze średnich firm.',
        }),
      ),
    );
  }, 120_000);
});

describe('no AI endpoint is left out', () => {
  it('walks every route that needs the AI service', async () => {
    const routes: string[] = [];
    const noAi = await t.app({
      service: null,
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) {
          if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) && route.url.startsWith('/api/')) {
            routes.push(`${method} ${route.url}`);
          }
        }
      },
    });
    const admin = `Bearer ${await t.issuer.sign(accessClaims('admin'))}`;
    const needsAi = new Set<string>();
    for (const route of routes) {
      const [method, url] = route.split(' ') as [string, string];
      const res = await noAi.inject({
        method: method as 'POST',
        url: url.replace(/:([^/]+)/g, 'x').replace(/\*/g, 'x'),
        headers: { authorization: url.startsWith('/api/admin/') ? admin : await t.bearer(USER) },
        payload: { text: 'x' },
      });
      if (
        res.statusCode === 503 &&
        errorResponseSchema.parse(res.json()).error.code === 'ai_not_configured'
      ) {
        needsAi.add(route);
      }
    }
    for (const { route, payload } of checksBodyFirst) {
      const [method, url] = route.split(' ') as [string, string];
      const res = await noAi.inject({
        method: method as 'POST',
        url,
        headers: { authorization: await t.bearer(USER) },
        payload,
      });
      expect(res.statusCode, `${route}: ${res.body}`).toBe(503);
      expect(errorResponseSchema.parse(res.json()).error.code, route).toBe('ai_not_configured');
      needsAi.add(route);
    }
    expect(needsAi.size).toBeGreaterThanOrEqual(12);
    expect([...needsAi].sort()).toEqual([...walked].sort());
  }, 60_000);

  it('every caller of ai.begin sends the profile it asked ai.brandFor for', () => {
    const root = join(import.meta.dirname, '../..');
    const files = (readdirSync(root, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }));
    const callers = files.filter(({ text }) => /\bai\.begin\(/.test(text));
    expect(callers.map(({ file }) => file.replaceAll('\\', '/')).sort()).toEqual([
      'modules/brief-creator/brief-creator.turn.ts',
      'modules/campaign-audience-builder/campaign-audience-builder.generate.ts',
      'modules/writing-tools/writing-tools.service.ts',
    ]);
    for (const { file, text } of callers) {
      expect(text, file).toMatch(/\bai\.brandFor\(/);
      expect(text, file).toMatch(/\bbrand(?::|,| \})/);
    }
    // Only those three talk to the model through a call's scope.
    const modelUsers = files.filter(({ text }) =>
      /scope\.model\.(?:generate|stream|object|streamObject)\(/.test(text),
    );
    for (const { file } of modelUsers) {
      expect(file.replaceAll('\\', '/')).toMatch(
        /^modules\/(writing-tools|brief-creator|campaign-audience-builder)\//,
      );
    }
  });
});
