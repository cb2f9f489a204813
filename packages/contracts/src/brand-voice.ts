import { formatCount } from './format-number';
import { z } from 'zod';

import { campaignChannelIds, campaignChannels } from './campaign-channels';
import { storableText } from './storable-text';

export { applyAll, applyFix, safeFixes, StaleFindingError } from './brand-voice-apply';

/**
 * The brand voice (issue 31): the firm's profile (voice, audience, do and don't examples,
 * preferred, banned and exact-spelling terms, mandatory disclaimers, company facts), kept in
 * versions the administrators save, sent to the model by every generator, and the style check
 * that reads any text against it. One name in every layer: `contracts/brand-voice.ts`,
 * `lib/brand-voice` (server and web), `modules/brand-voice`, `/api/brand-voice/*` and
 * `/api/admin/brand-voice/*`.
 */

export const brandVoicePaths = {
  /** POST { text, target? }: the style check of any text against the profile in force. */
  check: '/api/brand-voice/check',
  /** GET: the profile in force (read only; every signed-in user with access). */
  profile: '/api/brand-voice/profile',
  /** GET: the profile in force with its forms; PUT a BrandProfile: saves it as a new version. */
  adminProfile: '/api/admin/brand-voice',
  /** GET: every version, newest first (who saved it, when, a summary). */
  adminVersions: '/api/admin/brand-voice/versions',
  /** GET: one version's profile. */
  adminVersion: '/api/admin/brand-voice/versions/:version',
} as const;

// ---- targets: what a disclaimer or a limit is for ---------------------------------------------

/** The generators a profile's disclaimers can be for, beside the campaign channels. */
export const brandToolTargets = [
  'article',
  'social-media-post',
  'paid-ads',
  'teaser-generator',
  'brief-creator',
] as const;

/**
 * A tool or a campaign channel: what a text is written for. The article is both, with the same
 * limit, so it is listed once.
 */
export const brandTargetIds = [
  ...brandToolTargets,
  ...campaignChannelIds.filter((id): id is Exclude<typeof id, 'article'> => id !== 'article'),
];
export const brandTargetSchema = z.enum(brandTargetIds, { error: 'Choose a tool or a channel GEM has.' });
export type BrandTarget = z.infer<typeof brandTargetSchema>;

const toolTargetLabels: Record<(typeof brandToolTargets)[number], string> = {
  article: 'Article',
  'social-media-post': 'Social media post (tool)',
  'paid-ads': 'Paid ads (tool)',
  'teaser-generator': 'Teaser (tool)',
  'brief-creator': 'Brief creator',
};

/** What the page calls a target. */
export function brandTargetLabel(target: BrandTarget): string {
  return target in toolTargetLabels
    ? toolTargetLabels[target as keyof typeof toolTargetLabels]
    : `${campaignChannels[target as keyof typeof campaignChannels].label} (campaign channel)`;
}

// ---- the profile -------------------------------------------------------------------------------

/** Terms one profile may hold in all (banned, preferred, the words they replace and names). */
export const MAX_PROFILE_TERMS = 1_000;
/** The longest term, in characters: a phrase of a few words, not a paragraph. */
export const MAX_TERM_LENGTH = 100;

const line = (label: string, max: number) =>
  storableText(label)
    .trim()
    .min(1, { error: `${label} is empty.` })
    .max(max, { error: `${label} is longer than ${max} characters.` });
const optionalLine = (label: string, max: number) =>
  storableText(label)
    .trim()
    .max(max, { error: `${label} is longer than ${max} characters.` });
const term = (label: string) => line(label, MAX_TERM_LENGTH);
const list = <T extends z.ZodType>(item: T, label: string, max: number) =>
  z.array(item).max(max, { error: `${label}: at most ${formatCount(max)} entries.` });

export const brandAddressForms = ['panstwo', 'ty'] as const;
export type BrandAddressForm = (typeof brandAddressForms)[number];

export const brandProfileSchema = z.object({
  voice: z.object({
    attributes: z
      .array(z.object({ name: line('The attribute', 60), explanation: optionalLine('The explanation', 300) }))
      .min(3, { error: 'Give the voice 3 to 6 attributes.' })
      .max(6, { error: 'Give the voice 3 to 6 attributes.' }),
    /** How the texts address the reader: "Państwo" (formal) or "Ty". */
    address: z.enum(brandAddressForms, { error: 'Choose Państwo or Ty.' }),
  }),
  audienceNotes: optionalLine('The audience notes', 2_000),
  examples: list(
    z.object({ do: line('The example to follow', 500), dont: line('The example to avoid', 500) }),
    'Do and don’t examples',
    10,
  ),
  preferred: list(
    z.object({
      term: term('The preferred term'),
      replaces: z
        .array(term('The word it replaces'))
        .min(1, { error: 'Name at least one word the preferred term replaces.' })
        .max(20, { error: 'A preferred term replaces at most 20 words.' }),
      reason: optionalLine('The reason', 300),
    }),
    'Preferred terms',
    MAX_PROFILE_TERMS,
  ),
  banned: list(
    z.object({
      term: term('The banned term'),
      reason: line('The reason', 300),
      replacement: optionalLine('The replacement', MAX_TERM_LENGTH),
    }),
    'Banned terms',
    MAX_PROFILE_TERMS,
  ),
  /** Service lines and products in their exact spelling ("Deal Advisory"). */
  names: list(term('The name'), 'Names', MAX_PROFILE_TERMS),
  disclaimers: list(
    z.object({
      text: line('The disclaimer', 600),
      targets: z.array(brandTargetSchema).min(1, { error: 'Choose where the disclaimer must appear.' }),
    }),
    'Disclaimers',
    20,
  ),
  facts: z.object({
    serviceLines: list(line('The service line', 200), 'Service lines', 50),
    offices: list(line('The office', 200), 'Offices', 50),
    claims: list(line('The claim', 300), 'Claims allowed', 50),
  }),
  /** Capitals that are no shouting, beside the usual acronyms (AI, CEO, ESG, VAT…). */
  acronyms: list(line('The acronym', 20), 'Acronyms', 200),
});
export type BrandProfile = z.infer<typeof brandProfileSchema>;

/**
 * What a save sends: the profile, optionally what changed in words, and the version the editor
 * started from (null: none saved yet). A save on a version someone has replaced since is refused
 * (409), so nobody undoes another administrator's save without seeing it.
 */
export const brandProfileSaveSchema = z
  .object({
    profile: brandProfileSchema,
    note: optionalLine('The note', 300).optional(),
    basedOn: z
      .number({ error: 'Say which version the changes start from (null for none).' })
      .int({ error: 'Say which version the changes start from (null for none).' })
      .min(1, { error: 'Say which version the changes start from (null for none).' })
      .nullable(),
  })
  .superRefine((save, ctx) => {
    // Each list has its own limit; together they may hold MAX_PROFILE_TERMS terms.
    const count = profileTerms(save.profile).length;
    if (count > MAX_PROFILE_TERMS) {
      ctx.addIssue({
        code: 'custom',
        path: ['profile'],
        message: `A profile holds at most ${formatCount(MAX_PROFILE_TERMS)} terms (banned and preferred terms, the words they replace and names together); this one has ${formatCount(count)}.`,
      });
    }
  });
export type BrandProfileSave = z.infer<typeof brandProfileSaveSchema>;

/** How large a save's request may be, in bytes: a full profile (1,000 terms with their reasons) fits. */
export const BRAND_PROFILE_BODY_LIMIT = 1_800_000;
/** What a save larger than that is told. */
export const BRAND_PROFILE_TOO_LARGE_MESSAGE = `The brand profile is too large to save (at most 1.8 MB). A profile holds at most ${formatCount(MAX_PROFILE_TERMS)} terms: remove some, then save again.`;

/** Every term of a profile, in one list: what MAX_PROFILE_TERMS counts. */
export function profileTerms(profile: BrandProfile): string[] {
  return [
    ...profile.banned.map((entry) => entry.term),
    ...profile.preferred.flatMap((entry) => [entry.term, ...entry.replaces]),
    ...profile.names,
  ];
}

/** A word's forms as the profile's save found them (how, for the page and the tests). */
export const termFormsSchema = z.object({
  term: z.string(),
  words: z.array(z.array(z.string())),
  sources: z.array(z.string()),
});
export type TermFormsEntry = z.infer<typeof termFormsSchema>;

export const brandVersionSummarySchema = z.object({
  version: z.number().int(),
  savedAt: z.string(),
  savedBy: z.string().nullable(),
  note: z.string().nullable(),
  counts: z.object({ banned: z.number(), preferred: z.number(), names: z.number(), disclaimers: z.number() }),
});
export type BrandVersionSummary = z.infer<typeof brandVersionSummarySchema>;

export const brandVersionSchema = brandVersionSummarySchema.extend({
  profile: brandProfileSchema,
  forms: z.array(termFormsSchema),
});
export type BrandVersion = z.infer<typeof brandVersionSchema>;

/** The profile in force, or none saved yet (the check then has the house's typography only). */
export const brandProfileResponseSchema = z.object({ current: brandVersionSchema.nullable() });
export type BrandProfileResponse = z.infer<typeof brandProfileResponseSchema>;

/** The version in GET /api/admin/brand-voice/versions/:version. */
export const brandVersionParamsSchema = z.object({
  version: z.coerce
    .number({ error: 'Give the version as a whole number, e.g. 3.' })
    .int({ error: 'Give the version as a whole number, e.g. 3.' })
    .min(1, { error: 'Versions are numbered from 1.' })
    .max(2_147_483_647, { error: 'There is no such version.' }),
});

export const brandVersionsResponseSchema = z.object({ items: z.array(brandVersionSummarySchema) });
export type BrandVersionsResponse = z.infer<typeof brandVersionsResponseSchema>;

// ---- the style check ---------------------------------------------------------------------------

export const styleRuleIds = [
  'banned',
  'preferred',
  'name',
  'disclaimer',
  'limit',
  'quotes',
  'all-caps',
  'exclamation',
] as const;
export type StyleRule = (typeof styleRuleIds)[number];

export const styleRuleLabels: Record<StyleRule, string> = {
  banned: 'Banned term',
  preferred: 'Preferred term',
  name: 'Name spelling',
  disclaimer: 'Missing disclaimer',
  limit: 'Over the limit',
  quotes: 'Quotation marks',
  'all-caps': 'All caps',
  exclamation: 'Exclamation marks',
};

export const styleFindingSchema = z.object({
  /** Stable for the same text and rules: rule, start and end. */
  id: z.string(),
  rule: z.enum(styleRuleIds),
  /** UTF-16 offsets into the checked text; start === end marks a place (the missing disclaimer). */
  start: z.number().int(),
  end: z.number().int(),
  text: z.string(),
  message: z.string(),
  reason: z.string(),
  fix: z.object({ replacement: z.string(), safe: z.boolean() }).optional(),
});
export type StyleFinding = z.infer<typeof styleFindingSchema>;

export const styleCheckSchema = z.object({
  findings: z.array(styleFindingSchema),
  counts: z.record(z.enum(styleRuleIds), z.number().int()),
  /** 100 with nothing found, less by each finding's weight, never below 0. */
  score: z.number(),
  /** The profile version the text was checked against; null: none saved (typography only). */
  version: z.number().int().nullable(),
});
export type StyleCheck = z.infer<typeof styleCheckSchema>;

/**
 * The longest text the check takes on demand, in characters: 10,000 Polish words with room to
 * spare (bench/style-check.md: 10,000 words of 133,000 characters in under 50 ms at p95).
 */
export const MAX_CHECK_CHARACTERS = 150_000;

export const styleCheckRequestSchema = z.object({
  text: storableText('The text')
    .min(1, { error: 'Paste a text to check.' })
    .max(MAX_CHECK_CHARACTERS, {
      error: `The text is too long to check: at most ${formatCount(MAX_CHECK_CHARACTERS)} characters.`,
    }),
  /** What the text is for: its disclaimers and limits are checked too. */
  target: brandTargetSchema.optional(),
});
export type StyleCheckRequest = z.infer<typeof styleCheckRequestSchema>;
