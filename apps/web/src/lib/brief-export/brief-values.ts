import { briefListFields, type BriefData, type BriefField } from '@gem/contracts/brief-creator';

/** A brief as the exports take it: a finished one, or the one being written. */
export type ExportableBrief = {
  /** The finished brief's title, or the campaign name while the brief is being written. */
  title: string;
  data: BriefData;
  /** ISO date-time of a finished brief. */
  createdAt?: string | null;
  /** A finished brief's id. */
  id?: string | null;
};

/** What both exports call a brief without a title or campaign name. */
export const UNTITLED_BRIEF = 'Marketing brief';

/** Characters XML 1.0 cannot carry (an .xlsx or .docx with one does not open), and lone surrogates. */
const XML_UNSAFE =
  // eslint-disable-next-line no-control-regex -- these control characters are what is removed
  /[\u0000-\u0008\v\f\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The text as both documents store it: XML-safe, one kind of line break, no blank ends. */
export function exportText(value: string): string {
  return value.replace(XML_UNSAFE, '').replace(/\r\n?/g, '\n').trim();
}

/** A list field's items as shown: each made safe, the blank ones left out. */
export function exportItems(items: readonly string[]): string[] {
  return items.map(exportText).filter((item) => item !== '');
}

/** The document's title: the brief's title, else its campaign name, else 'Marketing brief'. */
export function exportTitle(brief: ExportableBrief): string {
  return exportText(brief.title) || exportText(brief.data.campaignName) || UNTITLED_BRIEF;
}

const listFields: ReadonlySet<BriefField> = new Set(briefListFields);

export const isListField = (field: BriefField): field is (typeof briefListFields)[number] =>
  listFields.has(field);

/** A field's value, read the same way by both exports. */
export type ExportValue =
  | { kind: 'text'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'date'; date: Date }
  | { kind: 'empty' };

/**
 * A YYYY-MM-DD calendar date as midnight UTC, or null when it is not a real date. UTC keeps the
 * day the same in every time zone (a spreadsheet's serial date and the document's words alike).
 */
export function parseIsoDate(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? date : null;
}

export function exportValue(data: BriefData, field: BriefField): ExportValue {
  if (field === 'eventDate') {
    const raw = data.eventDate;
    if (raw === null || raw.trim() === '') return { kind: 'empty' };
    const date = parseIsoDate(raw);
    // A date the schema would refuse (a brief still being written): shown as it was written.
    return date ? { kind: 'date', date } : { kind: 'text', text: exportText(raw) };
  }
  if (isListField(field)) {
    const items = exportItems(data[field]);
    return items.length > 0 ? { kind: 'list', items } : { kind: 'empty' };
  }
  const text = exportText(data[field]);
  return text === '' ? { kind: 'empty' } : { kind: 'text', text };
}

const eventDateFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A calendar date as GEM writes dates (spec §9, without the time): 'Mar 12, 2026'. */
export const formatEventDate = (date: Date): string => eventDateFormat.format(date);

/**
 * True when a spreadsheet could take the text for a formula (OWASP, CSV injection): it begins
 * with =, +, -, @, a tab or a carriage return, or their full-width forms, which some Excel input
 * modes turn into the ASCII ones.
 */
export const looksLikeFormula = (text: string): boolean => /^[=+\-@\t\r\n＝＋－＠]/.test(text);
