import { z } from 'zod';

import { formatCount } from './format-number';
import { storableText } from './storable-text';

/**
 * The brief creator's brief (spec §3 Brief data): its fields, their labels, limits and required
 * ones, and how a brief is read (filled, missing, merged). The chat, the sessions and the finished
 * briefs are in `brief-creator.ts`, which exports all of this too.
 */

/** Spec §3: the campaign type's options. The brief holds a list of them. */
export const campaignTypes = [
  'Webinar',
  'Report',
  'Event',
  'Social Media',
  'Email',
  'Content Marketing',
  'Other',
] as const;
export type CampaignType = (typeof campaignTypes)[number];

/** Spec §9: the chat's languages; the screen starts in English, the service layer in Polish. */
export const briefLanguages = ['English', 'Polish', 'German'] as const;
export type BriefLanguage = (typeof briefLanguages)[number];
export const SCREEN_DEFAULT_LANGUAGE: BriefLanguage = 'English';
export const SERVICE_DEFAULT_LANGUAGE: BriefLanguage = 'Polish';

/** The longest message and the longest text field accepted, in characters. */
export const BRIEF_MESSAGE_MAX = 4_000;
export const BRIEF_TEXT_FIELD_MAX = 4_000;
/** A list field's most items, and each item's longest text. */
export const BRIEF_LIST_MAX_ITEMS = 30;
export const BRIEF_LIST_ITEM_MAX = 300;
/** A recommendation is a sentence or two, longer than a list item of the other fields. */
export const BRIEF_RECOMMENDATION_MAX = 2_000;

const fieldText = (label: string) =>
  storableText(label).max(BRIEF_TEXT_FIELD_MAX, {
    error: `${label} is too long: at most ${formatCount(BRIEF_TEXT_FIELD_MAX)} characters.`,
  });
const fieldList = (label: string, itemMax = BRIEF_LIST_ITEM_MAX) =>
  z
    .array(
      storableText(label).max(itemMax, {
        error: `An item of ${label} is too long: at most ${formatCount(itemMax)} characters.`,
      }),
    )
    .max(BRIEF_LIST_MAX_ITEMS, { error: `${label} has too many items: at most ${BRIEF_LIST_MAX_ITEMS}.` });

/** An ISO calendar date, YYYY-MM-DD. */
export const isoDateSchema = z.iso.date({ error: 'A date must be written as YYYY-MM-DD.' });

/**
 * Spec §3 Brief data: every field, in the order the preview and the exports show them, and the
 * recommendations the user took into the brief (issue 27; the model never fills them in).
 */
const briefDataShape = {
  campaignName: fieldText('Campaign name'),
  campaignType: z.array(z.enum(campaignTypes)).max(campaignTypes.length),
  primaryObjective: fieldText('Primary objective'),
  eventObjective: fieldText('Event objective'),
  eventDate: isoDateSchema.nullable(),
  targetAudience: fieldText('Target audience'),
  budget: fieldText('Budget'),
  timeline: fieldText('Timeline'),
  keyMessages: fieldText('Key messages'),
  channels: fieldList('Channels'),
  activityKPIs: fieldList('Activity KPIs'),
  businessKPIs: fieldList('Business KPIs'),
  creativeAssets: fieldText('Creative assets'),
  additionalNotes: fieldText('Additional notes'),
  recommendations: fieldList('Recommendations', BRIEF_RECOMMENDATION_MAX),
};
/** Briefs stored before the recommendations field read as having none. */
export const briefDataSchema = z.object({
  ...briefDataShape,
  recommendations: briefDataShape.recommendations.default([]),
});
export type BriefData = z.infer<typeof briefDataSchema>;
export type BriefField = keyof BriefData;

/** Spec §3: brief fields can be merged in partially (a field left out stays as it is). */
export const partialBriefDataSchema = z.object(briefDataShape).partial();
export type PartialBriefData = z.infer<typeof partialBriefDataSchema>;

export const briefFields = Object.keys(briefDataSchema.shape) as BriefField[];

/** What the preview, the details page and the exports call each field. */
export const briefFieldLabels: Record<BriefField, string> = {
  campaignName: 'Campaign name',
  campaignType: 'Campaign type',
  primaryObjective: 'Primary objective',
  eventObjective: 'Event objective',
  eventDate: 'Event date',
  targetAudience: 'Target audience',
  budget: 'Budget',
  timeline: 'Timeline',
  keyMessages: 'Key messages',
  channels: 'Channels',
  activityKPIs: 'Activity KPIs',
  businessKPIs: 'Business KPIs',
  creativeAssets: 'Creative assets',
  additionalNotes: 'Additional notes',
  recommendations: 'Recommendations',
};

/** Spec §3: the required fields. */
export const requiredBriefFields: readonly BriefField[] = [
  'campaignName',
  'campaignType',
  'primaryObjective',
  'targetAudience',
  'keyMessages',
  'channels',
  'activityKPIs',
  'businessKPIs',
];

/** The list fields (the others are text, or the event date). */
export const briefListFields = [
  'campaignType',
  'channels',
  'activityKPIs',
  'businessKPIs',
  'recommendations',
] as const;

/** Spec §3: all text fields start empty. */
export const emptyBriefData = (): BriefData => ({
  campaignName: '',
  campaignType: [],
  primaryObjective: '',
  eventObjective: '',
  eventDate: null,
  targetAudience: '',
  budget: '',
  timeline: '',
  keyMessages: '',
  channels: [],
  activityKPIs: [],
  businessKPIs: [],
  creativeAssets: '',
  additionalNotes: '',
  recommendations: [],
});

/** True when the field holds something (blank text and empty lists do not count). */
export function isBriefFieldFilled(data: BriefData, field: BriefField): boolean {
  const value = data[field];
  if (value === null) return false;
  if (Array.isArray(value)) return value.some((item) => item.trim() !== '');
  return value.trim() !== '';
}

/** The required fields still empty, in the spec's order. */
export const missingRequiredFields = (data: BriefData): BriefField[] =>
  requiredBriefFields.filter((field) => !isBriefFieldFilled(data, field));

/** True when every field is empty (spec §2: 'Export to Excel' is disabled then). */
export const isBriefEmpty = (data: BriefData): boolean =>
  briefFields.every((field) => !isBriefFieldFilled(data, field));

/** `partial` merged over `data`: the fields it names replace the old values. */
export function mergeBriefData(data: BriefData, partial: PartialBriefData): BriefData {
  const merged = { ...data };
  for (const field of briefFields) {
    if (partial[field] !== undefined) (merged as Record<BriefField, unknown>)[field] = partial[field];
  }
  return merged;
}
