import { brandTargetLabel, type BrandProfile, type BrandTarget } from '@gem/contracts/brand-voice';
import { neutraliseTags } from '../ai/prompt-blocks';
import { CHARACTERS_PER_TOKEN } from '../ai/context-budget';

/**
 * The brand profile as every generator sends it to the model: a Polish block, like the other
 * prompts, inside `<profil_marki wersja="N">` (the administrators' words as data the model
 * follows as the firm's rules, their tags neutralised as any content's are).
 *
 * It fits a budget in tokens. What does not fit is cut predictably, never silently: the parts go
 * in a fixed order (the version, the form of address and the typography, then the disclaimers
 * this text must carry, the banned terms, the exact names, the preferred terms, the voice, the
 * audience, the facts, the examples), each part's entries in the profile's order, and the first
 * entry that does not fit ends the block, which then says what was left out. The disclaimers are
 * never cut. The style check still checks every rule, sent or not.
 */

/** The most a profile takes of a prompt, in tokens, however large the model's context. */
export const BRAND_PROMPT_MAX_TOKENS = 2_000;
/** The share of a call's prompt budget the profile may take at most. */
export const BRAND_PROMPT_SHARE = 0.25;

export type BrandPrompt = {
  /** The block to put in the system prompt. */
  text: string;
  version: number;
  /** Entries left out for the budget, per part (empty when all fit). */
  omitted: Record<string, number>;
};

type Part = { key: string; title: string; entries: string[]; omittedLabel: string; keep?: boolean };

const quoted = (text: string) => `„${text}”`;

function parts(profile: BrandProfile, target: BrandTarget | undefined): Part[] {
  const disclaimers = profile.disclaimers.filter((entry) => target && entry.targets.includes(target));
  return [
    {
      key: 'disclaimers',
      title: 'Obowiązkowe zastrzeżenia (dołącz każde dosłownie, na końcu tekstu):',
      entries: disclaimers.map((entry) => `- ${quoted(entry.text)}`),
      omittedLabel: 'zastrzeżeń',
      keep: true,
    },
    {
      key: 'banned',
      title: 'Zakazane określenia (nie używaj ich w żadnej formie ani odmianie):',
      entries: profile.banned.map(
        (entry) =>
          `- ${quoted(entry.term)}: ${entry.reason}${entry.replacement ? `; zamiast tego: ${quoted(entry.replacement)}` : ''}`,
      ),
      omittedLabel: 'zakazanych określeń',
    },
    {
      key: 'names',
      title: 'Nazwy usług i produktów (pisz je dokładnie tak):',
      entries: profile.names.map((name) => `- ${name}`),
      omittedLabel: 'nazw',
    },
    {
      key: 'preferred',
      title: 'Preferowane określenia:',
      entries: profile.preferred.map(
        (entry) =>
          `- ${quoted(entry.term)} zamiast ${entry.replaces.map(quoted).join(', ')}${entry.reason ? ` (${entry.reason})` : ''}`,
      ),
      omittedLabel: 'preferowanych określeń',
    },
    {
      key: 'voice',
      title: 'Głos marki:',
      entries: profile.voice.attributes.map(
        (attribute) => `- ${attribute.name}${attribute.explanation ? `: ${attribute.explanation}` : ''}`,
      ),
      omittedLabel: 'cech głosu',
    },
    {
      key: 'audience',
      title: 'Odbiorcy:',
      entries: profile.audienceNotes ? [profile.audienceNotes] : [],
      omittedLabel: 'notatek o odbiorcach',
    },
    {
      key: 'facts',
      title: 'Fakty o firmie, których możesz używać (nie dodawaj innych twierdzeń o firmie):',
      entries: [
        ...profile.facts.serviceLines.map((entry) => `- Linia usług: ${entry}`),
        ...profile.facts.offices.map((entry) => `- Biuro: ${entry}`),
        ...profile.facts.claims.map((entry) => `- Dozwolone twierdzenie: ${entry}`),
      ],
      omittedLabel: 'faktów o firmie',
    },
    {
      key: 'examples',
      title: 'Przykłady:',
      entries: profile.examples.map(
        (example) => `- Tak: ${quoted(example.do)}\n  Nie: ${quoted(example.dont)}`,
      ),
      omittedLabel: 'przykładów',
    },
  ];
}

/**
 * The profile's block for a text written for `target` (its disclaimers), in at most
 * `budgetTokens` (the disclaimers are kept even over it).
 */
export function brandPrompt(
  profile: BrandProfile,
  version: number,
  target: BrandTarget | undefined,
  budgetTokens: number,
): BrandPrompt {
  const budget = Math.max(0, budgetTokens) * CHARACTERS_PER_TOKEN;
  const head = [
    `Wersja profilu marki: ${version}.`,
    profile.voice.address === 'panstwo'
      ? 'Zwracaj się do czytelnika formą „Państwo” (formalnie), nie „Ty”.'
      : 'Zwracaj się do czytelnika bezpośrednio, na „Ty”, nie „Państwo”.',
    'Typografia: cudzysłowy „…”, żadnych słów pisanych WIELKIMI LITERAMI (poza skrótowcami), najwyżej jeden wykrzyknik w całym tekście.',
    ...(target ? [`Tekst powstaje dla: ${brandTargetLabel(target)}.`] : []),
  ];
  const lines = [...head];
  let used = lines.join('\n').length;
  const omitted: Record<string, number> = {};
  let full = false;
  for (const part of parts(profile, target)) {
    if (part.entries.length === 0) continue;
    if (full && !part.keep) {
      omitted[part.omittedLabel] = part.entries.length;
      continue;
    }
    const titleCost = part.title.length + 1;
    let taken = 0;
    for (const entry of part.entries) {
      const cost = entry.length + 1 + (taken === 0 ? titleCost : 0);
      if (!part.keep && used + cost > budget) {
        full = true;
        break;
      }
      if (taken === 0) lines.push('', part.title);
      lines.push(entry);
      used += cost;
      taken += 1;
    }
    if (taken < part.entries.length) omitted[part.omittedLabel] = part.entries.length - taken;
  }
  const left = Object.entries(omitted);
  if (left.length > 0) {
    lines.push(
      '',
      `Z braku miejsca pominięto tu: ${left.map(([label, count]) => `${count} ${label}`).join(', ')}. Obowiązują tak samo; trzymaj się tonu powyższych.`,
    );
  }
  const body = neutraliseTags(lines.join('\n'));
  return {
    text: `Pisz w głosie marki firmy, według jej profilu poniżej: to zasady firmy, nie treść do przepisania.\n<profil_marki wersja="${version}">\n${body}\n</profil_marki>`,
    version,
    omitted,
  };
}
