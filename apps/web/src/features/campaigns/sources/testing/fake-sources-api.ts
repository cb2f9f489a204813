// A campaign's sources as the local test server answers them (testing/api-server.ts), checked and
// refused as the real server (modules/campaigns/campaign-sources.service.ts) checks and refuses
// them: the request's schema, a campaign the user may not see (404) or only read (403), an item
// GEM does not store or a link that is not a competitor's page (400 naming the field), the most
// sources a campaign keeps. Installed after fakeCampaignsApi, whose campaigns it reads.
import {
  addCampaignSourceRequestSchema,
  CAMPAIGN_SOURCES_MAX,
  campaignSourcesPath,
  type AddCampaignSourceRequest,
  type CampaignSource,
} from '@gem/contracts/campaign-sources';
import type { Campaign } from '@gem/contracts/campaigns';
import { beforeEach } from 'vitest';

import { json, type serveApi } from '@/testing/api-server';

import { ME } from '../../testing/fake-campaigns-api';

type Server = ReturnType<typeof serveApi>;

const refusal = (code: string, message: string, issues?: { path: string; message: string }[]) => ({
  error: { code, message, ...(issues ? { issues } : {}), requestId: 'req-test' },
});

export function fakeSourcesApi(
  server: Server,
  campaigns: { state: { campaigns: Campaign[] } },
  {
    /** The Market Research items GEM stores, by id. */
    items = {} as Record<string, { title: string; url: string; contentText: string }>,
    /** Where the competitors' pages are. */
    competitorSites = ['https://www.deloitte.com/'],
  } = {},
) {
  const state = {
    items,
    competitorSites,
    /** Every POST's body, with the campaign it was sent to. */
    posted: [] as { campaignId: string; body: unknown }[],
    sources: {} as Record<string, CampaignSource[]>,
  };
  let counter = 0;

  beforeEach(() => {
    state.posted = [];
    state.sources = {};
    state.items = { ...items };
    state.competitorSites = [...competitorSites];
  });

  /** Installs the routes for the campaigns in the list now (call it once they are set). */
  function serve() {
    for (const c of campaigns.state.campaigns) {
      const path = campaignSourcesPath(c.id);
      server.on('GET', path, (_req, _raw, res) => json(res, 200, { sources: state.sources[c.id] ?? [] }));
      server.on('POST', path, (_req, raw, res) => {
        const body: unknown = JSON.parse(raw);
        state.posted.push({ campaignId: c.id, body });
        const parsed = addCampaignSourceRequestSchema.safeParse(body);
        if (!parsed.success) {
          const issues = parsed.error.issues.map((issue) => ({
            path: ['body', ...issue.path].join('.'),
            message: issue.message,
          }));
          return json(res, 400, refusal('validation_failed', 'Some fields are not valid.', issues));
        }
        if (c.role === 'reader') {
          return json(res, 403, refusal('forbidden', 'Only its owner or editors may change this campaign.'));
        }
        const resolved = resolve(parsed.data);
        if ('issue' in resolved) {
          return json(res, 400, refusal('validation_failed', 'Some fields are not valid.', [resolved.issue]));
        }
        const list = (state.sources[c.id] ??= []);
        const before = list.find((s) => s.url === resolved.url && s.kind === parsed.data.kind);
        if (before) return json(res, 200, before);
        if (list.length >= CAMPAIGN_SOURCES_MAX) {
          return json(
            res,
            400,
            refusal(
              'validation_failed',
              `A campaign keeps at most ${CAMPAIGN_SOURCES_MAX} sources. Remove one first.`,
            ),
          );
        }
        const source: CampaignSource = {
          id: `50000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`,
          kind: parsed.data.kind,
          ...resolved,
          addedBy: ME,
          addedAt: '2026-03-14T10:30:00.000Z',
        };
        list.push(source);
        json(res, 201, source);
      });
    }
  }

  type Resolved =
    { issue: { path: string; message: string } } | { title: string; url: string; summary: string };

  function resolve(request: AddCampaignSourceRequest): Resolved {
    if (request.kind === 'market-research') {
      const item = state.items[request.itemId];
      if (!item) {
        return {
          issue: { path: 'body.itemId', message: `No Market Research item has the id ${request.itemId}.` },
        };
      }
      return { title: item.title, url: item.url, summary: item.contentText };
    }
    if (!state.competitorSites.some((site) => request.link.startsWith(site))) {
      return {
        issue: {
          path: 'body.link',
          message:
            'This link is not a page of a competitor GEM follows: add results of the competitor search.',
        },
      };
    }
    return { title: request.title, url: request.link, summary: request.snippet };
  }

  return { state, serve };
}
