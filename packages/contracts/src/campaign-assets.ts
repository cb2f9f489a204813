import { z } from 'zod';

import {
  campaignChannelIds,
  campaignChannels,
  type CampaignChannelId,
  type ChannelLimit,
} from './campaign-channels';
import { styleCheckSchema } from './brand-voice';
import { campaignSlug, type UtmTags } from './campaign-links';
import { campaignPath, campaignPersonSchema } from './campaigns';
import { storableText } from './storable-text';
import { formatCount } from './format-number';
import { countCharacters, countWords } from './text-rules';

/**
 * A campaign's assets (issue 29): one per channel, made by the channel's writing tool from the
 * brief, then edited by hand. Every generation and every save is a version; a save made on an
 * older version than the newest is a conflict (409) that keeps both texts as versions.
 */

export const assetStatuses = ['draft', 'in-review', 'approved'] as const;
export type AssetStatus = (typeof assetStatuses)[number];
export const assetStatusLabels: Record<AssetStatus, string> = {
  draft: 'Draft',
  'in-review': 'In review',
  approved: 'Approved',
};

/** How a version came to be. */
export const assetVersionKinds = ['generated', 'edited', 'restored', 'conflict'] as const;
export type AssetVersionKind = (typeof assetVersionKinds)[number];

/** The longest asset text a save takes (an article is far shorter; a Facebook post may be long). */
export const ASSET_TEXT_MAX = 63_206;
export const ASSET_INSTRUCTION_MAX = 500;
/** The instructions 'Regenerate' offers, besides free text. */
export const assetInstructionPresets = ['Shorter', 'More formal', 'For CFOs'] as const;

export const campaignAssetsPath = (campaignId: string) => `${campaignPath(campaignId)}/assets`;
export const campaignAssetPath = (campaignId: string, channel: CampaignChannelId) =>
  `${campaignAssetsPath(campaignId)}/${channel}`;

export const campaignAssetsPaths = {
  /** GET the campaign's assets (one per channel that has one), with their newest versions. */
  assets: '/api/campaigns/:campaignId/assets',
  /** GET one asset with all its versions; PUT a hand-edited text; PATCH its status or UTM tags. */
  asset: '/api/campaigns/:campaignId/assets/:channel',
  /** GET the inputs 'Generate from brief' would send to the channel's writing tool. */
  inputs: '/api/campaigns/:campaignId/assets/:channel/inputs',
  /** POST: generate (or regenerate with an instruction); an NDJSON stream of GenerationEvent. */
  generate: '/api/campaigns/:campaignId/assets/:channel/generate',
  /**
   * POST: every asset the brief's channels call for, generated at once within the user's AI
   * limits; an NDJSON stream of GenerateAllEvent lines.
   */
  generateAll: '/api/campaigns/:campaignId/generate-all',
  /** POST { version }: the old version's text as the newest. */
  restore: '/api/campaigns/:campaignId/assets/:channel/restore',
} as const;

export const campaignGenerateAllPath = (campaignId: string) => `${campaignPath(campaignId)}/generate-all`;

export const channelSchema = z.enum(campaignChannelIds, {
  error: `Choose a channel from the list: ${campaignChannelIds.join(', ')}.`,
});

/** What a version was made from: shown as the asset's provenance. */
export const assetProvenanceSchema = z.object({
  briefVersion: z.number().int().positive(),
  /** The writing tool and the version of its prompt (a digest of the prompt's rules). */
  tool: z.string(),
  promptVersion: z.string(),
  /** The model that answered; 'demo' for GEM's built-in stand-in. */
  model: z.string().nullable(),
  generationId: z.string(),
  /** The instruction a regeneration was given. */
  instruction: z.string().optional(),
  /** The campaign's sources the model was given (listed under the text, with links). */
  sources: z.array(z.object({ title: z.string(), url: z.string() })).optional(),
});
export type AssetProvenance = z.infer<typeof assetProvenanceSchema>;

export const assetVersionSchema = z.object({
  version: z.number().int().positive(),
  kind: z.enum(assetVersionKinds),
  text: z.string(),
  author: campaignPersonSchema,
  createdAt: z.iso.datetime({ offset: true }),
  /** Generated versions only. */
  provenance: assetProvenanceSchema.nullable(),
});
export type AssetVersion = z.infer<typeof assetVersionSchema>;

/** The longest UTM value. */
export const UTM_VALUE_MAX = 100;

const utmValue = (label: string) =>
  storableText(label)
    .trim()
    .min(1, { error: `${label} is empty.` })
    .max(UTM_VALUE_MAX, { error: `${label} is too long: at most ${UTM_VALUE_MAX} characters.` })
    .refine((value) => value === '' || /^[\p{L}\p{N}][\p{L}\p{N}._+-]*$/u.test(value), {
      error: `${label} takes letters, digits and . _ + - only, starting with a letter or a digit (no spaces).`,
    });

/**
 * The UTM tags an asset's links carry, as the marketer sets them: its source and medium (the
 * channel's by default, campaign-channels.ts) and an optional utm_content; utm_campaign is
 * always the campaign's slug.
 */
export const assetUtmSchema = z.object({
  source: utmValue('The UTM source'),
  medium: utmValue('The UTM medium'),
  content: utmValue('The UTM content').nullable().default(null),
});
export type AssetUtm = z.infer<typeof assetUtmSchema>;

/** An asset's UTM tags as stored: the marketer's, or null for the channel's own. */
export type StoredUtm = { source: string | null; medium: string | null; content: string | null };

/** The UTM tags an asset's links carry: as set, else its channel's. */
export function assetUtmOf(channel: CampaignChannelId, stored: StoredUtm): CampaignAsset['utm'] {
  const own = campaignChannels[channel].utm;
  const edited = stored.source !== null || stored.medium !== null || stored.content !== null;
  return {
    source: stored.source ?? own.source,
    medium: stored.medium ?? own.medium,
    content: stored.content,
    edited,
  };
}

/** The tags for withUtm and tagLinks: the asset's, with the campaign's slug as utm_campaign. */
export const utmTagsOf = (
  utm: Pick<CampaignAsset['utm'], 'source' | 'medium' | 'content'>,
  campaignName: string,
): UtmTags => ({
  source: utm.source,
  medium: utm.medium,
  campaign: campaignSlug(campaignName),
  ...(utm.content ? { content: utm.content } : {}),
});

export const campaignAssetSchema = z.object({
  channel: z.enum(campaignChannelIds),
  status: z.enum(assetStatuses),
  /** The version everyone works on: the newest save or generation (a conflicting save is not it); 0 before the first. */
  version: z.number().int().nonnegative(),
  text: z.string(),
  updatedAt: z.iso.datetime({ offset: true }),
  /** Where the current text came from: its own provenance, or that of the generation it was edited from. */
  provenance: assetProvenanceSchema.nullable(),
  /**
   * The style check (issue 31) of the generation the text was made from, its findings' offsets
   * into `text`; absent once the text was edited since, or when the stored check does not read.
   */
  style: styleCheckSchema.optional(),
  /** Who is generating it now (on any instance), and until when at the latest. */
  generating: z.object({ by: campaignPersonSchema, until: z.iso.datetime({ offset: true }) }).nullable(),
  /** Why its last generation failed; null once one succeeds. */
  lastError: z.string().nullable(),
  /** The UTM tags its links carry; `edited` when they are not the channel's own. */
  utm: z.object({
    source: z.string(),
    medium: z.string(),
    content: z.string().nullable(),
    edited: z.boolean(),
  }),
});
export type CampaignAsset = z.infer<typeof campaignAssetSchema>;

export const campaignAssetsResponseSchema = z.object({ assets: z.array(campaignAssetSchema) });
export type CampaignAssetsResponse = z.infer<typeof campaignAssetsResponseSchema>;

export const campaignAssetDetailsSchema = campaignAssetSchema.extend({
  /** Newest first. */
  versions: z.array(assetVersionSchema),
});
export type CampaignAssetDetails = z.infer<typeof campaignAssetDetailsSchema>;

export const saveAssetRequestSchema = z.object({
  text: storableText('The text')
    .max(ASSET_TEXT_MAX, {
      error: `The text is too long: at most ${formatCount(ASSET_TEXT_MAX)} characters.`,
    })
    .refine((text) => text.trim() !== '', { error: 'The text is empty.' }),
  /** The version the edit was made on. */
  baseVersion: z.number().int().positive(),
});
export type SaveAssetRequest = z.infer<typeof saveAssetRequestSchema>;

export const updateAssetRequestSchema = z
  .object({
    status: z.enum(assetStatuses, { error: 'Choose Draft, In review or Approved.' }).optional(),
    /** The links' UTM tags; null goes back to the channel's own. */
    utm: assetUtmSchema.nullable().optional(),
  })
  .refine((v) => v.status !== undefined || v.utm !== undefined, {
    error: 'Say what to change: the status or the UTM tags.',
  });
export type UpdateAssetRequest = z.infer<typeof updateAssetRequestSchema>;

export const restoreAssetRequestSchema = z.object({ version: z.number().int().positive() });

export const generateAssetRequestSchema = z.object({
  /**
   * The tool's inputs as the page shows them ('Generate from brief' fills them; the marketer may
   * change them); checked against the channel's tool's own input schema. Absent: from the brief.
   */
  input: z.record(z.string(), z.unknown()).optional(),
  /** Regenerate: how the current text should change ("Shorter", "For CFOs", free text). */
  instruction: storableText('The instruction')
    .trim()
    .min(1, { error: 'The instruction is empty.' })
    .max(ASSET_INSTRUCTION_MAX, {
      error: `The instruction is too long: at most ${ASSET_INSTRUCTION_MAX} characters.`,
    })
    .optional(),
});
export type GenerateAssetRequest = z.infer<typeof generateAssetRequestSchema>;

/** One line of 'Generate all': each asset's progress, tagged with its channel. */
export const generateAllEventSchema = z.discriminatedUnion('type', [
  /** The assets it makes, in order; those someone else is generating already are left to them. */
  z.object({
    type: z.literal('started'),
    channels: z.array(z.enum(campaignChannelIds)),
    busy: z.array(z.enum(campaignChannelIds)),
  }),
  /** More text of one asset (to append). */
  z.object({ type: z.literal('delta'), channel: z.enum(campaignChannelIds), text: z.string() }),
  /** One asset's model is asked to shorten: clear what was shown of it. */
  z.object({ type: z.literal('restart'), channel: z.enum(campaignChannelIds) }),
  /** One asset is done and saved as this version, with the style check of its text (offsets into it). */
  z.object({
    type: z.literal('saved'),
    channel: z.enum(campaignChannelIds),
    version: z.number().int(),
    style: styleCheckSchema.optional(),
  }),
  /** One asset failed (the others go on); it can be generated again on its own. */
  z.object({
    type: z.literal('failed'),
    channel: z.enum(campaignChannelIds),
    error: z.object({ code: z.string(), message: z.string() }),
  }),
  /** All of them have ended. */
  z.object({ type: z.literal('end'), saved: z.number().int(), failed: z.number().int() }),
]);
export type GenerateAllEvent = z.infer<typeof generateAllEventSchema>;

export const assetInputsResponseSchema = z.object({
  tool: z.string(),
  input: z.record(z.string(), z.unknown()),
});
export type AssetInputsResponse = z.infer<typeof assetInputsResponseSchema>;

/** One count of a text against one of its channel's limits. */
export type LimitCount = ChannelLimit & { count: number; over: boolean; found: boolean };

/** `text` without the characters of `chars` at its ends. */
function trimChars(text: string, chars: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start]!)) start += 1;
  while (end > start && chars.includes(text[end - 1]!)) end -= 1;
  return text.slice(start, end);
}

const MARKS = ' \t*_#>-';

/** A labelled line of ad copy ("Nagłówek 1: …", "**Headline:** …", "Opis 2 – …") as its label and value. */
function labelledLine(line: string): { label: string; value: string } | null {
  const colon = line.indexOf(':');
  const dash = line.indexOf(' – ');
  const at = colon >= 0 && (dash < 0 || colon < dash) ? colon : dash;
  if (at < 0) return null;
  const label = trimChars(trimChars(line.slice(0, at), MARKS), `${MARKS}0123456789`).toLowerCase();
  const value = trimChars(line.slice(at + (at === colon ? 1 : 3)), ' \t*_');
  return label && value ? { label, value } : null;
}

const labelWords: Record<string, readonly string[]> = {
  Headline: ['nagłówek', 'naglowek', 'headline', 'tytuł'],
  Description: ['opis', 'description'],
  'Primary text': ['tekst główny', 'tekst podstawowy', 'primary text'],
};

/**
 * The text's counts against its channel's limits: the whole text for a post, an article or a
 * teaser; for ads, each labelled line (the longest headline against the headline limit). An ad
 * without such a line is counted whole against its first limit, marked `found: false`.
 */
export function channelCounts(channel: CampaignChannelId, text: string): LimitCount[] {
  const { limits } = campaignChannels[channel];
  const count = (value: string, unit: ChannelLimit['unit']) =>
    unit === 'words' ? countWords(value) : countCharacters(value);
  if (limits.length === 1) {
    const [limit] = limits as [ChannelLimit];
    const n = count(text.trim(), limit.unit);
    return [{ ...limit, count: n, over: n > limit.max, found: true }];
  }
  const lines = text.split('\n').map(labelledLine);
  return limits.map((limit, index) => {
    const words = labelWords[limit.label] ?? [limit.label.toLowerCase()];
    const values = lines.flatMap((line) => (line && words.includes(line.label) ? [line.value] : []));
    if (values.length === 0) {
      const n = index === 0 ? count(text.trim(), limit.unit) : 0;
      return { ...limit, count: n, over: n > limit.max, found: false };
    }
    const n = Math.max(...values.map((value) => count(value, limit.unit)));
    return { ...limit, count: n, over: n > limit.max, found: true };
  });
}

/** Why a text cannot be saved for its channel, or null: only whole-text limits are enforced. */
export function tooLongForChannel(channel: CampaignChannelId, text: string): string | null {
  const { limits, label } = campaignChannels[channel];
  if (limits.length !== 1) return null;
  const [limit] = channelCounts(channel, text) as [LimitCount];
  return limit.over
    ? `The ${label} is too long for its channel: ${formatCount(limit.count)} ${limit.unit}, at most ${formatCount(limit.max)}.`
    : null;
}
