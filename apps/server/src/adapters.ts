import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Crm } from './integrations/crm/crm';
import { createCrm } from './integrations/crm/create-crm';
import { createFeedReader, type FeedReader } from './integrations/feeds/feed-reader';
import { createAiSdkTextModel } from './integrations/llm/ai-sdk-text-model';
import { createDemoTextModel } from './integrations/llm/demo-text-model';
import type { TextModel } from './integrations/llm/text-model';
import { createBraveSearch } from './integrations/web-search/brave-search';
import { createIndexSearch } from './integrations/web-search/index-search';
import type { WebSearch } from './integrations/web-search/web-search';
import {
  createIdentityProvider,
  type IdentityProvider,
  type IdentityProviderOptions,
} from './integrations/oidc/identity-provider';

/**
 * GEM's ports to the outside, each built from config by its adapter: who signed in (the
 * embedded provider or an external OIDC issuer), the AI text service, the news feeds, web
 * search (competitor search), the CRM (campaign audience builder). The process entry (server.ts) builds them and hands them to
 * buildApp; tests build them from a config that points at the local test servers.
 */
export type AppAdapters = {
  identityProvider: IdentityProvider;
  /** null when no AI service is configured (the AI tools say so). */
  textModel: TextModel | null;
  feedReader: FeedReader;
  /** Competitor search: GEM's own index, or the Brave Search API (GEM_SEARCH_PROVIDER). */
  webSearch: WebSearch;
  /** The campaign audience builder's CRM: the embedded demo CRM, or Salesforce (GEM_CRM_PROVIDER). */
  crm: Crm;
  /** Stops what the adapters run themselves (the demo AI stand-in’s server); the services’ close calls it. */
  close?: () => Promise<void>;
};

export type AdapterSeams = {
  /** An external issuer's fetch and clock, the sign-in throttle's limits. */
  identity?: Pick<IdentityProviderOptions, 'external' | 'throttle'>;
};

export async function createAdapters({
  config,
  db,
  log,
  seams = {},
}: {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  seams?: AdapterSeams;
}): Promise<AppAdapters> {
  const { ai } = config;
  const llmLog = log.child({ module: 'llm' });
  const demo = ai.service?.provider === 'demo' ? await createDemoTextModel({ ai, log: llmLog }) : null;
  return {
    identityProvider: await createIdentityProvider({ config, db, log, ...seams.identity }),
    textModel: demo
      ? demo.model
      : ai.service
        ? createAiSdkTextModel({ ai, service: ai.service, log: llmLog })
        : null,
    feedReader: createFeedReader(config.feeds),
    webSearch: config.search.brave ? createBraveSearch(config.search.brave) : createIndexSearch({ db }),
    crm: createCrm({ config: config.crm, db, log: log.child({ module: 'crm' }) }),
    ...(demo ? { close: demo.close } : {}),
  };
}
