import type { BrandProfile } from '@gem/contracts/brand-voice';
import { briefCreatorPaths, chatResponseSchema } from '@gem/contracts/brief-creator';
import { campaignSchema, campaignsPaths, type Campaign } from '@gem/contracts/campaigns';
import { briefChatTurn } from '@gem/test-servers/brief-replies';
import { errorResponseSchema } from '@gem/contracts/errors';
import {
  generationEventSchema,
  generationHistoryResponseSchema,
  writingToolPaths,
  type GenerationEvent,
  type WritingToolName,
} from '@gem/contracts/writing-tools';
import { startOidcIssuer, type OidcIssuer } from '@gem/test-servers/oidc-issuer';
import type { FastifyBaseLogger, RouteOptions } from 'fastify';
import { startOpenAiServer, type OpenAiServer } from '@gem/test-servers/openai-server';
import type { RecordedRequest, ScriptedReply } from '@gem/test-servers/scripted-replies';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { App } from '../src/app';
import type { AiConfig, Config } from '../src/config';
import type { Metrics } from '../src/lib/metrics';
import { testConfig } from './test-config';
import type { Database } from '../src/db/client';
import { createTestDatabase } from './test-database';
import { accessClaims, buildTestApp, externalAuth } from './test-app';
import { rememberSecret } from './log-capture';
import { MIN_TEXT_LENGTH } from './log-scan';

/**
 * For tests of the AI tools: an OpenID issuer to mint access tokens, the OpenAI-compatible
 * test server, a fresh database, and GEM apps built against them (the real adapter, over HTTP).
 */

/** Everyone at this domain has app access. */
export const PERMITTED_DOMAIN = 'gem.example';

export type AiHarness = {
  issuer: OidcIssuer;
  ai: OpenAiServer;
  database: Database;
  /**
   * A GEM app with the AI service at the test server (or `aiUrl`); `service: null` for none;
   * counting into `metrics` when given.
   */
  app(overrides?: AppOverrides): Promise<App>;
  /** `authorization` header value for a permitted user. */
  bearer(user: string): Promise<string>;
  close(): Promise<void>;
};

type AppOverrides = Partial<Omit<AiConfig, 'service'>> & {
  service?: null;
  aiUrl?: string;
  metrics?: Metrics;
  /** Run the background work once listening (test-app.ts). */
  background?: boolean;
  /** The services' clock (ServicesDeps `now`): the brand profile's refresh, access decisions. */
  now?: () => number;
  /** A logger of the test's own, to read the lines the app writes (test-app.ts). */
  logger?: FastifyBaseLogger;
  /** Called for every route as it is registered (to walk the route table). */
  onRoute?: (route: RouteOptions) => void;
};

export async function startAiHarness(): Promise<AiHarness> {
  const [issuer, ai, database] = await Promise.all([
    startOidcIssuer(),
    startOpenAiServer(),
    createTestDatabase(),
  ]);
  const apps: App[] = [];
  // The model's answers are the user's words as much as the prompts: never in the logs.
  const enqueue = ai.enqueue.bind(ai);
  ai.enqueue = (...replies) => {
    for (const reply of replies) rememberAnswer(reply);
    enqueue(...replies);
  };

  function config({ aiUrl = ai.url, ...overrides }: AppOverrides): Config {
    const base = testConfig();
    return testConfig({
      auth: externalAuth(issuer.issuer),
      access: { ...base.access, allowedDomains: [PERMITTED_DOMAIN] },
      ai: {
        ...base.ai,
        service: {
          provider: 'openai-compatible',
          model: 'gem-test-model',
          baseUrl: aiUrl,
          apiKey: 'test-key',
        },
        timeoutMs: 5_000,
        retryBaseDelayMs: 10,
        limits: { perMinute: 1_000, concurrent: 50 },
        ...overrides,
      },
    });
  }

  return {
    issuer,
    ai,
    database,
    async app({ metrics, background, now, logger, onRoute, ...overrides } = {}) {
      const app = await buildTestApp({
        config: config(overrides),
        database,
        metrics,
        background,
        onRoute,
        ...(now ? { now } : {}),
        ...(logger ? { logger } : {}),
      });
      apps.push(app);
      await app.ready();
      return app;
    },
    async bearer(user) {
      return `Bearer ${await issuer.sign(accessClaims(user, PERMITTED_DOMAIN))}`;
    },
    async close() {
      for (const app of apps) await app.close();
      await ai.close();
      await database.close();
      await issuer.close();
    },
  };
}

/** The events of an NDJSON body, each checked against the contract. */
export function parseEvents(body: string): GenerationEvent[] {
  return body
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => generationEventSchema.parse(JSON.parse(line)));
}

/** The text a page shows at the end of a stream: deltas appended, cleared at restart. */
export function streamedText(events: GenerationEvent[]): string {
  let text = '';
  for (const event of events) {
    if (event.type === 'delta') text += event.text;
    if (event.type === 'restart') text = '';
  }
  return text;
}

/** A valid input of each writing tool. */
export const sampleInputs = {
  article: {
    content: 'GEM pomaga zespołom marketingu pisać szybciej.',
    task: 'Napisz krótki artykuł na bloga.',
  },
  'social-media-post': {
    summary: 'Raport o cyfryzacji firm.',
    content: 'Pełny raport o cyfryzacji średnich firm w Polsce.',
    description: 'Post zapowiadający raport.',
    format: 200,
    persona: 'CEO',
  },
  'paid-ads': { content: 'Raport o cyfryzacji dla dyrektorów finansowych.' },
  'teaser-generator': { content: 'Nowy raport o rynku pracy.' },
  summarize: { documentText: 'Długi dokument o rynku nieruchomości w Polsce w 2026 roku.' },
} satisfies Record<WritingToolName, unknown>;

export type AiToolsTest = AiHarness & {
  /** The app every call goes to unless another is named. */
  main: App;
  /** POSTs a writing tool's input as `user`. */
  generate(
    name: WritingToolName,
    user?: string,
    payload?: unknown,
    target?: App,
  ): Promise<Awaited<ReturnType<App['inject']>>>;
  /** The user's history of a tool (asserted 200). */
  history(
    name: WritingToolName,
    user: string,
  ): Promise<ReturnType<typeof generationHistoryResponseSchema.parse>['items']>;
};

/**
 * For a test file of AI features: starts the harness and one app before its tests, resets the
 * test server's script before each, closes everything after. The returned object is filled in
 * by then (read its fields inside tests, not at the top level).
 */
export function useAiHarness(): AiToolsTest {
  const t = {} as AiToolsTest;
  beforeAll(async () => {
    Object.assign(t, await startAiHarness());
    t.main = await t.app();
    t.generate = async (name, user = 'ala', payload = sampleInputs[name], target = t.main) =>
      target.inject({
        method: 'POST',
        url: writingToolPaths.generate(name),
        headers: { authorization: await t.bearer(user) },
        payload: payload as object,
      });
    t.history = async (name, user) => {
      const res = await t.main.inject({
        method: 'GET',
        url: writingToolPaths.history(name),
        headers: { authorization: await t.bearer(user) },
      });
      expect(res.statusCode).toBe(200);
      return generationHistoryResponseSchema.parse(res.json()).items;
    };
  });
  afterAll(() => t.close?.());
  beforeEach(() => t.ai.reset());
  return t;
}

/** The system prompt of a recorded model request. */
export const systemOf = (r: RecordedRequest | undefined) =>
  r?.body.messages?.find((m) => m.role === 'system')?.content ?? '';
/** The last user turn of a recorded model request. */
export const userOf = (r: RecordedRequest | undefined) =>
  r?.body.messages?.filter((m) => m.role === 'user').at(-1)?.content ?? '';
export const finalOf = (events: GenerationEvent[]) => {
  const final = events.at(-1);
  if (final?.type !== 'final') throw new Error(`no final event: ${JSON.stringify(events)}`);
  return final;
};
export const errorOf = (res: { json(): unknown }) => errorResponseSchema.parse(res.json()).error;

/** Polish words a Polish prompt cannot do without. */
export const polish = /po polsku/;
/** A Polish sentence of 41-42 characters. */
export const sentence = (n: number) => `To jest zdanie numer ${n}, które ma sens. `;

/**
 * Calls as a user, and a campaign opened from a brief accepted in the brief creator, for tests
 * outside modules/campaigns (which has its own, campaigns.test-support.ts; lib may not import it).
 */
export function campaignCallsOf(h: AiToolsTest) {
  async function call(method: 'GET' | 'POST', url: string, user: string, payload?: object) {
    return h.main.inject({ method, url, headers: { authorization: await h.bearer(user) }, payload });
  }
  async function openCampaign(user: string, data: Record<string, unknown>): Promise<Campaign> {
    h.ai.enqueue({ kind: 'object', value: briefChatTurn('Noted.', data, false) });
    const first = await call('POST', briefCreatorPaths.chat, user, {
      message: `About ${String(data.campaignName)}`,
      language: 'English',
    });
    expect(first.statusCode, first.body).toBe(200);
    const { sessionId } = chatResponseSchema.parse(first.json());
    const accepted = await call('POST', briefCreatorPaths.chat, user, {
      message: '',
      sessionId,
      confirmJsonResponse: true,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const { finishedBriefId } = chatResponseSchema.parse(accepted.json());
    const res = await call('POST', campaignsPaths.campaigns, user, { finishedBriefId });
    expect(res.statusCode, res.body).toBe(201);
    return campaignSchema.parse(res.json());
  }
  return { call, openCampaign };
}

/**
 * A brand profile (issue 31) as an administrator might save it: banned "tani" (any form) and a
 * phrase, a preferred term, a name, and a disclaimer paid ads and Google Ads must carry.
 * The brand voice's own tests save it too.
 */
export const brandProfileSample = (over: Partial<BrandProfile> = {}): BrandProfile => ({
  voice: {
    attributes: [
      { name: 'ekspercki, ale przystępny', explanation: 'Wiemy dużo, mówimy prosto.' },
      { name: 'konkretny', explanation: 'Liczby i przykłady zamiast ogólników.' },
      { name: 'spokojny', explanation: 'Bez krzyku i bez wykrzykników.' },
    ],
    address: 'panstwo',
  },
  audienceNotes: 'Zarządy i dyrektorzy finansowi średnich firm.',
  examples: [{ do: 'Pomagamy zaplanować transakcję.', dont: 'Najlepsze usługi na rynku!!!' }],
  preferred: [{ term: 'klient', replaces: ['petent'], reason: 'Tak mówimy o ludziach.' }],
  banned: [
    { term: 'tani', reason: 'Brzmi jak niska jakość.', replacement: 'przystępny' },
    {
      term: 'rozwiązanie szyte na miarę',
      reason: 'Wytarty frazes.',
      replacement: 'rozwiązanie dla Państwa firmy',
    },
  ],
  names: ['Deal Advisory'],
  disclaimers: [{ text: 'Materiał nie stanowi porady prawnej.', targets: ['paid-ads', 'google-ads'] }],
  facts: { serviceLines: ['Deal Advisory'], offices: ['Warszawa'], claims: [] },
  acronyms: ['M&A'],
  ...over,
});

/** The texts of a scripted answer, for the log scan (log-capture.ts). */
function rememberAnswer(reply: ScriptedReply) {
  const texts = (value: unknown): string[] =>
    typeof value === 'string'
      ? [value]
      : Array.isArray(value)
        ? value.flatMap(texts)
        : typeof value === 'object' && value !== null
          ? Object.values(value).flatMap(texts)
          : [];
  const found = 'text' in reply ? [reply.text] : reply.kind === 'object' ? texts(reply.value) : [];
  for (const text of found) if (text.length >= MIN_TEXT_LENGTH) rememberSecret('answer', text);
}
