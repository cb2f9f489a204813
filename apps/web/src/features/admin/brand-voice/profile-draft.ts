import type { BrandAddressForm, BrandProfile, BrandTarget } from '@gem/contracts/brand-voice';

/**
 * The brand profile as the editor holds it: rows for the lists whose entries have parts, and a
 * line per entry for the plain lists (names, facts, acronyms), which stay usable at hundreds of
 * entries and take a pasted list as it is. The server's issues name the profile's paths; the
 * editor shows each at the field and the line it came from.
 */
export type ProfileDraft = {
  attributes: { name: string; explanation: string }[];
  address: BrandAddressForm;
  audienceNotes: string;
  examples: { do: string; dont: string }[];
  preferred: { term: string; replaces: string; reason: string }[];
  banned: { term: string; reason: string; replacement: string }[];
  names: string;
  disclaimers: { text: string; targets: BrandTarget[] }[];
  serviceLines: string;
  offices: string;
  claims: string;
  acronyms: string;
};

export type LineField = 'names' | 'serviceLines' | 'offices' | 'claims' | 'acronyms';

/** Where each line field's entries are in the profile (the server's issue paths). */
export const linePaths: Record<LineField, string> = {
  names: 'profile.names',
  serviceLines: 'profile.facts.serviceLines',
  offices: 'profile.facts.offices',
  claims: 'profile.facts.claims',
  acronyms: 'profile.acronyms',
};

const lines = (list: readonly string[]) => list.join('\n');
const entriesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The line number (from 1) of each entry a line field sends. */
export function entryLines(text: string): number[] {
  const numbers: number[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() !== '') numbers.push(index + 1);
  });
  return numbers;
}

export function emptyDraft(): ProfileDraft {
  return {
    attributes: [
      { name: '', explanation: '' },
      { name: '', explanation: '' },
      { name: '', explanation: '' },
    ],
    address: 'panstwo',
    audienceNotes: '',
    examples: [],
    preferred: [],
    banned: [],
    names: '',
    disclaimers: [],
    serviceLines: '',
    offices: '',
    claims: '',
    acronyms: '',
  };
}

export function draftOf(profile: BrandProfile): ProfileDraft {
  return {
    attributes: profile.voice.attributes.map((a) => ({ ...a })),
    address: profile.voice.address,
    audienceNotes: profile.audienceNotes,
    examples: profile.examples.map((e) => ({ ...e })),
    preferred: profile.preferred.map((p) => ({
      term: p.term,
      replaces: p.replaces.join(', '),
      reason: p.reason,
    })),
    banned: profile.banned.map((b) => ({ ...b })),
    names: lines(profile.names),
    disclaimers: profile.disclaimers.map((d) => ({ text: d.text, targets: [...d.targets] })),
    serviceLines: lines(profile.facts.serviceLines),
    offices: lines(profile.facts.offices),
    claims: lines(profile.facts.claims),
    acronyms: lines(profile.acronyms),
  };
}

/** What the editor sends: row fields as typed (the server trims and checks them), lines as entries. */
export function profileOf(draft: ProfileDraft): BrandProfile {
  return {
    voice: { attributes: draft.attributes, address: draft.address },
    audienceNotes: draft.audienceNotes,
    examples: draft.examples,
    preferred: draft.preferred.map((p) => ({
      term: p.term,
      replaces: p.replaces
        .split(',')
        .map((word) => word.trim())
        .filter((word) => word !== ''),
      reason: p.reason,
    })),
    banned: draft.banned,
    names: entriesOf(draft.names),
    disclaimers: draft.disclaimers,
    facts: {
      serviceLines: entriesOf(draft.serviceLines),
      offices: entriesOf(draft.offices),
      claims: entriesOf(draft.claims),
    },
    acronyms: entriesOf(draft.acronyms),
  };
}

/**
 * Banned terms pasted one a line, as "term | reason | replacement" (the reason and the
 * replacement may be left out; a tab separates too, as a spreadsheet's copied cells do).
 */
export function parseBannedLines(text: string): ProfileDraft['banned'] {
  return entriesOf(text).map((line) => {
    const [term = '', reason = '', replacement = ''] = line.split(/[|\t]/).map((part) => part.trim());
    return { term, reason, replacement };
  });
}

/** The server's issues by path, without the request part ("body."). */
export type Issues = Record<string, string>;

/** The issues at `path` or below it. */
export function issuesAt(issues: Issues, path: string): string[] {
  return Object.entries(issues)
    .filter(([key]) => key === path || key.startsWith(`${path}.`))
    .map(([, message]) => message);
}

/** A line field's issues, each with the line it is on. */
export function lineIssues(issues: Issues, field: LineField, text: string): string[] {
  const path = linePaths[field];
  const numbers = entryLines(text);
  return Object.entries(issues)
    .filter(([key]) => key === path || key.startsWith(`${path}.`))
    .map(([key, message]) => {
      const index = Number(key.slice(path.length + 1).split('.')[0]);
      const line = Number.isInteger(index) ? numbers[index] : undefined;
      return line === undefined ? message : `Line ${line}: ${message}`;
    });
}
