import {
  assetStatusLabels,
  type AssetProvenance,
  type AssetStatus,
  type AssetVersionKind,
  type LimitCount,
} from '@gem/contracts/campaign-assets';
import { findTool } from '@gem/contracts/catalogue';

import { formatInteger } from '@/lib/format-number';

/**
 * How the assets' part of a campaign's page words things: statuses, versions, the counts against
 * a channel's limits, what a text was made from, and the writing tools' inputs.
 */

export { assetStatusLabels };

/** A status's badge: in review in the brand's tint, approved in green. */
export const assetStatusTones: Record<AssetStatus, 'neutral' | 'brand' | 'success'> = {
  draft: 'neutral',
  'in-review': 'brand',
  approved: 'success',
};

export const versionKindLabels: Record<AssetVersionKind, string> = {
  generated: 'Generated',
  edited: 'Edited by hand',
  restored: 'Restored',
  conflict: 'Kept from a conflicting save',
};

/** A writing tool's name as the tools menu has it ('social-media-post' is 'Social media post'). */
export const toolName = (slug: string): string => findTool(slug)?.name ?? slug;

/** The model as a person reads it: GEM's built-in stand-in says what it is. */
export const modelText = (model: string | null): string =>
  model === 'demo'
    ? "GEM's built-in example (demo answer: no AI service is configured)"
    : (model ?? 'not recorded');

/** What a text was made from, as label and value pairs: the brief's version, the tool, its prompt, the model. */
export function provenanceParts(provenance: AssetProvenance): [label: string, value: string][] {
  return [
    ['Brief', `version ${provenance.briefVersion}`],
    ['Tool', toolName(provenance.tool)],
    ['Prompt', provenance.promptVersion],
    ['Model', modelText(provenance.model)],
  ];
}

/**
 * One count against one limit, in words: 'LinkedIn post: 1,204 / 3,000 characters', and what is
 * wrong when it is over ('180 over the limit') or when an ad's labelled line was not found.
 */
export function countText(limit: LimitCount): { label: string; value: string; problem: string | null } {
  const value = `${formatInteger(limit.count)} / ${formatInteger(limit.max)} ${limit.unit}`;
  if (!limit.found && limit.count === 0) {
    return { label: limit.label, value: `– / ${formatInteger(limit.max)} ${limit.unit}`, problem: null };
  }
  const label = limit.found ? limit.label : `${limit.label} (no labelled line: the whole text)`;
  return {
    label,
    value,
    problem: limit.over ? `${formatInteger(limit.count - limit.max)} over the limit` : null,
  };
}

/** The writing tools' inputs as their pages label them; any other key reads as itself. */
const inputLabels: Record<string, string> = {
  content: 'Paste the base content',
  task: 'Describe the task for GEM',
  summary: 'Summary',
  description: 'Describe the post',
  format: 'Format',
  persona: 'Persona',
};

export const inputLabel = (key: string): string =>
  inputLabels[key] ?? `${key.charAt(0).toUpperCase()}${key.slice(1)}`;

/** What a field's over-limit message calls it ('The task is too long'). */
const inputSubjects: Record<string, string> = {
  content: 'The content',
  task: 'The task',
  summary: 'The summary',
  description: 'The description',
};
export const inputSubject = (key: string): string => inputSubjects[key] ?? 'The text';

/** The social post's format: the word limit (spec §9), as the tool's page offers it. */
export const postFormatOptions = [
  { value: 200, label: 'Short: up to 200 words' },
  { value: 300, label: 'Long: up to 300 words' },
] as const;
