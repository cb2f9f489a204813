import { brandTargetLabel, type BrandProfile } from '@gem/contracts/brand-voice';

/**
 * Two versions of the brand profile side by side, part by part: what the newer one added,
 * removed and changed. Entries are matched by what names them (a term, an attribute's name, a
 * disclaimer's text), so a reordered list is no change.
 */

export type PartChanges = {
  part: string;
  added: string[];
  removed: string[];
  changed: { what: string; before: string; after: string }[];
};

function keyed<T>(
  part: string,
  before: readonly T[],
  after: readonly T[],
  keyOf: (item: T) => string,
  detailOf: (item: T) => string,
  show: (item: T) => string = keyOf,
): PartChanges {
  const was = new Map(before.map((item) => [keyOf(item), item]));
  const now = new Map(after.map((item) => [keyOf(item), item]));
  const changes: PartChanges = { part, added: [], removed: [], changed: [] };
  for (const [key, item] of now) {
    const old = was.get(key);
    if (old === undefined) changes.added.push(show(item));
    else if (detailOf(old) !== detailOf(item)) {
      changes.changed.push({ what: key, before: detailOf(old), after: detailOf(item) });
    }
  }
  for (const [key, item] of was) if (!now.has(key)) changes.removed.push(show(item));
  return changes;
}

const words = (list: readonly string[]) => list.join(', ');
const same = (item: string) => item;

function single(part: string, before: string, after: string): PartChanges {
  return {
    part,
    added: [],
    removed: [],
    changed: before === after ? [] : [{ what: part, before: before || '(empty)', after: after || '(empty)' }],
  };
}

/** Every part's changes from `before` to `after`; parts without a change are left out. */
export function compareProfiles(before: BrandProfile, after: BrandProfile): PartChanges[] {
  const address = (p: BrandProfile) => (p.voice.address === 'panstwo' ? 'Państwo' : 'Ty');
  const parts = [
    keyed(
      'Voice attributes',
      before.voice.attributes,
      after.voice.attributes,
      (a) => a.name,
      (a) => a.explanation,
    ),
    single('Form of address', address(before), address(after)),
    single('Audience notes', before.audienceNotes, after.audienceNotes),
    keyed(
      'Do and don’t examples',
      before.examples,
      after.examples,
      (e) => `Do: ${e.do} / Don’t: ${e.dont}`,
      () => '',
    ),
    keyed(
      'Preferred terms',
      before.preferred,
      after.preferred,
      (p) => p.term,
      (p) => `replaces ${words(p.replaces)}${p.reason ? `; ${p.reason}` : ''}`,
      (p) => `${p.term} (replaces ${words(p.replaces)})`,
    ),
    keyed(
      'Banned terms',
      before.banned,
      after.banned,
      (b) => b.term,
      (b) => `${b.reason}${b.replacement ? ` (use “${b.replacement}”)` : ''}`,
    ),
    keyed('Names', before.names, after.names, same, () => ''),
    keyed(
      'Disclaimers',
      before.disclaimers,
      after.disclaimers,
      (d) => d.text,
      (d) => d.targets.map(brandTargetLabel).join(', '),
    ),
    keyed('Service lines', before.facts.serviceLines, after.facts.serviceLines, same, () => ''),
    keyed('Offices', before.facts.offices, after.facts.offices, same, () => ''),
    keyed('Claims allowed', before.facts.claims, after.facts.claims, same, () => ''),
    keyed('Acronyms', before.acronyms, after.acronyms, same, () => ''),
  ];
  return parts.filter((p) => p.added.length + p.removed.length + p.changed.length > 0);
}
