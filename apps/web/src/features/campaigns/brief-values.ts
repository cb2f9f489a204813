import { briefFields, type BriefData, type BriefField } from '@gem/contracts/brief-creator';

/** A field's value as text: a list one item a line, no date as nothing. */
export function fieldText(brief: BriefData, field: BriefField): string {
  const value = brief[field];
  if (value === null) return '';
  return Array.isArray(value) ? value.join('\n') : value;
}

/** The value as the brief shows it, or null for 'Not specified'. */
export function shownValue(brief: BriefData, field: BriefField): string | string[] | null {
  const value = brief[field];
  if (value === null) return null;
  if (Array.isArray(value)) {
    const items = value.filter((item) => item.trim() !== '');
    return items.length > 0 ? items : null;
  }
  return value.trim() === '' ? null : value;
}

/** The fields whose text differs between two briefs, in the brief's order. */
export const changedFields = (a: BriefData, b: BriefData): BriefField[] =>
  briefFields.filter((field) => fieldText(a, field).trim() !== fieldText(b, field).trim());

/** The brief as it is saved: each list's items trimmed, the blank ones (empty lines) left out. */
export function tidyBrief(brief: BriefData): BriefData {
  const list = (items: string[]) => items.map((item) => item.trim()).filter((item) => item !== '');
  return {
    ...brief,
    channels: list(brief.channels),
    activityKPIs: list(brief.activityKPIs),
    businessKPIs: list(brief.businessKPIs),
    recommendations: list(brief.recommendations),
  };
}
