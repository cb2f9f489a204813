import { z } from 'zod';

import { campaignPath, campaignPersonSchema } from './campaigns';
import { storableText } from './storable-text';

/**
 * A campaign's sources (issue 29): Market Research items and competitor search results a
 * marketer brought in with 'Use in…'. Generation gives them to the model beside the brief, and
 * the asset lists them under its text, with links.
 */

export const campaignSourceKinds = ['market-research', 'competitor'] as const;
export type CampaignSourceKind = (typeof campaignSourceKinds)[number];

/** The most sources a campaign keeps, and the longest parts of a competitor result's own words. */
export const CAMPAIGN_SOURCES_MAX = 20;
export const SOURCE_TITLE_MAX = 500;
export const SOURCE_SUMMARY_MAX = 2_000;
export const SOURCE_URL_MAX = 2_000;

export const campaignSourcesPaths = {
  /** GET the campaign's sources, oldest first; POST one (an item's id, or a result's link). */
  sources: '/api/campaigns/:campaignId/sources',
  /** DELETE one. */
  source: '/api/campaigns/:campaignId/sources/:sourceId',
} as const;

export const campaignSourcesPath = (campaignId: string) => `${campaignPath(campaignId)}/sources`;
export const campaignSourcePath = (campaignId: string, sourceId: string) =>
  `${campaignSourcesPath(campaignId)}/${encodeURIComponent(sourceId)}`;

/**
 * A source to add: a Market Research item by its id (GEM reads its title, link and text), or a
 * competitor search result as the page showed it (its link must be a page of a competitor GEM
 * follows).
 */
export const addCampaignSourceRequestSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('market-research'), itemId: z.string().min(1).max(100) }),
    z.object({
      kind: z.literal('competitor'),
      link: z
        .string()
        .max(SOURCE_URL_MAX)
        .regex(/^https?:\/\/\S+$/iu, { error: 'The link must be a whole web address.' }),
      title: storableText('The title').trim().min(1, { error: 'The title is empty.' }).max(SOURCE_TITLE_MAX),
      snippet: storableText('The snippet').trim().max(SOURCE_SUMMARY_MAX),
    }),
  ],
  { error: 'Say what the source is: a Market Research item or a competitor search result.' },
);
export type AddCampaignSourceRequest = z.infer<typeof addCampaignSourceRequestSchema>;

export const campaignSourceSchema = z.object({
  id: z.uuid(),
  kind: z.enum(campaignSourceKinds),
  title: z.string(),
  url: z.string(),
  /** The item's text or the result's snippet, as given to the model. */
  summary: z.string(),
  addedBy: campaignPersonSchema,
  addedAt: z.iso.datetime({ offset: true }),
});
export type CampaignSource = z.infer<typeof campaignSourceSchema>;

export const campaignSourcesResponseSchema = z.object({ sources: z.array(campaignSourceSchema) });
export type CampaignSourcesResponse = z.infer<typeof campaignSourcesResponseSchema>;

/** A source's text as a writing tool's base content ('Use in…' → a tool): title, link and summary. */
export const sourceAsBaseContent = (source: { title: string; url: string; summary: string }) =>
  [source.title.trim(), source.url.trim(), '', source.summary.trim()].join('\n').trim();
