/**
 * What real models wrap around the text a writing tool asked for, taken off before the answer is
 * counted, shown, copied, stored or mailed (issue 26): a preamble line ("Oto…", "Jasne!…",
 * "Here is…"), a label ("Streszczenie:", "Summary:"), a code fence around the whole answer,
 * trailing notes on the length and offers of more help ("(Liczba znaków: 498)", "Let me
 * know…", "Daj znać…"), horizontal rules around it, and labelled variants ("Wariant 1:", of which
 * the first is kept). A plain-text tool's answer also loses its Markdown emphasis and heading
 * marks; an e-mail's its subject line, greeting and signature.
 *
 * Every rule looks at whole lines at the start or the end of the answer, and only takes a line
 * off when something else is left: an answer that obeys passes unchanged. No pattern here may
 * backtrack over model output (eslint-plugin-regexp checks them).
 */

export type CleanupOptions = {
  /** The tool's output is plain text (a post, an e-mail): no Markdown emphasis or heading marks. */
  plainText?: boolean;
  /** The text becomes an e-mail's body: no subject line, greeting or signature. */
  email?: boolean;
  /** The answer may be a numbered list of alternatives ("1. …", "2. …"): keep the first. */
  numberedVariants?: boolean;
};

export type CleanedAnswer = {
  text: string;
  /** Several variants came back and the first was kept: how many there were. */
  variants?: number;
};

const PREAMBLE_OPENER =
  /^(?:oto|poniżej|jasne|oczywiście|pewnie|proszę|świetnie|dobrze|here(?:'s|’s| is| are)|sure|certainly|of course|absolutely|below is|great|okay|ok)(?!\p{L})/iu;
// What a preamble speaks of: the answer itself, not its subject.
const META_NOUN =
  /propozycj|artyku|tekst|treść|post|wpis|teaser|zajawk|streszczen|reklam|wersj|wariant|odpowied|article|summary|draft|version|copy|\bad\b|\bads\b/iu;
const LABEL =
  /^(?:\*\*|__)?(?:streszczenie|podsumowanie|summary|post|teaser|zajawka|artykuł|article|tekst|odpowiedź|answer)(?:\s+(?:na linkedin|dokumentu|posta|artykułu))?\s*:\s*(?:(?:\*\*|__)\s*)?/iu;
const META_HEADING =
  /^#{1,6}\s+(?:post|artykuł|article|teaser|zajawka|streszczenie|summary|odpowiedź)(?:\s+(?:na\s+linkedin|na\s+bloga|do\s+e-maila|for\s+linkedin))?\s*(?::\s*)?$/iu;
const FENCE = /^\s*(?:```|~~~)[\w+-]*\s*$/u;
const RULE = /^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/u;
const NOTE_OPENER =
  /^[(*_\s[]*(?:liczba znaków|liczba słów|długość|character count|word count|characters?\s*:|words?\s*:|znaków\s*:|(?:ten |mój )?(?:post|tekst|artykuł|teaser|streszczenie|reklama|tekst reklamy) (?:ma|liczy|zawiera)\s+(?:około\s+|ok\.\s+|~)?\d|(?:około\s+|ok\.\s+|~)?\d+\s*(?:znak|słów|słowa|characters|words)|this (?:post|article|text|summary|teaser|ad) (?:has|is)\s+(?:about\s+|~)?\d)/iu;
const OFFER =
  /^[(*_\s]*(?:let me know|daj(?:cie)? znać|jeśli chcesz|jeżeli chcesz|jeśli potrzebujesz|if you(?:'d|’d| would)? (?:like|want|need)|i can also|i could also|mogę (?:też|również|przygotować)|czy (?:mam|chcesz|potrzebujesz)|would you like|do you want|feel free|hope this helps|mam nadzieję|chętnie (?:przygotuję|pomogę|dopasuję|zmienię)|happy to)/iu;
const SUBJECT = /^(?:\*\*|__)?(?:temat|tytuł wiadomości|subject)\s*:/iu;
const GREETING =
  /^(?:dzień dobry|szanowni państwo|szanowna pani|szanowny panie|witam|cześć|hej|hello|hi|dear)(?!\p{L})[^.!?\n]{0,40}[,!]?\s*$/iu;
const SIGN_OFF =
  /^(?:pozdrawiam|serdecznie pozdrawiam|z poważaniem|z wyrazami szacunku|łączę pozdrowienia|best regards|kind regards|regards|best|cheers|thank you|dziękuję)[\s,!.]*$/iu;
const VARIANT_LABEL =
  /^\s*(?:\*\*|__)?(?:wariant|wersja|propozycja|opcja|variant|version|option)\s*(?:nr\s*)?(?:\d{1,2}|[a-c])\b\s*(?:\*\*|__)?\s*[:.)–-]?\s*(?:\*\*|__)?\s*/iu;
const NUMBERED = /^\s*\d{1,2}[.)]\s+/u;

const lines = (text: string) => text.split('\n');
const isBlank = (line: string | undefined) => line === undefined || line.trim() === '';

/** The lines without blank ones at either end. */
function trimBlank(ls: string[]): string[] {
  let start = 0;
  let end = ls.length;
  while (start < end && isBlank(ls[start])) start += 1;
  while (end > start && isBlank(ls[end - 1])) end -= 1;
  return ls.slice(start, end);
}

/** The last paragraph's first line (after the last blank line). */
function lastParagraphStart(ls: string[]): number {
  let i = ls.length - 1;
  while (i > 0 && !isBlank(ls[i - 1])) i -= 1;
  return i;
}

function isPreamble(line: string, restFollows: boolean): boolean {
  const t = line.trim();
  if (!restFollows || !PREAMBLE_OPENER.test(t)) return false;
  if (t.endsWith(':')) return true;
  // "Jasne!", "Sure!", or one short sentence about the answer itself.
  return t.length <= 25 || (t.length <= 140 && META_NOUN.test(t));
}

/** Takes wrappers off the start and the end until none is left. */
function unwrap(ls: string[], options: CleanupOptions): string[] {
  let out = trimBlank(ls);
  for (let changed = true; changed && out.length > 0;) {
    changed = false;
    const first = out[0]!;
    const rest = out.length > 1;
    if (isPreamble(first, rest) || RULE.test(first) || (META_HEADING.test(first) && rest)) {
      out = trimBlank(out.slice(1));
      changed = true;
      continue;
    }
    if (FENCE.test(first)) {
      // An enclosing fence: its closing line, or none when the answer was cut off.
      const close = out.findIndex((l, i) => i > 0 && FENCE.test(l));
      out =
        close === -1 ? trimBlank(out.slice(1)) : trimBlank([...out.slice(1, close), ...out.slice(close + 1)]);
      changed = true;
      continue;
    }
    const label = LABEL.exec(first);
    if (label && (rest || first.length > label[0].length)) {
      const after = first.slice(label[0].length);
      out = trimBlank(after.trim() === '' ? out.slice(1) : [after, ...out.slice(1)]);
      changed = true;
      continue;
    }
    if (options.email && rest && (SUBJECT.test(first) || GREETING.test(first))) {
      out = trimBlank(out.slice(1));
      changed = true;
      continue;
    }
    if (out.length < 2) break;
    const lastLine = out[out.length - 1]!;
    if (RULE.test(lastLine) || FENCE.test(lastLine)) {
      out = trimBlank(out.slice(0, -1));
      changed = true;
      continue;
    }
    const start = lastParagraphStart(out);
    const last = out[start]!;
    if (start > 0 && (NOTE_OPENER.test(last) || OFFER.test(last))) {
      out = trimBlank(out.slice(0, start));
      changed = true;
      continue;
    }
    // A note on its own line right after the text ("Word count: 61").
    if (NOTE_OPENER.test(lastLine) || OFFER.test(lastLine)) {
      out = trimBlank(out.slice(0, -1));
      changed = true;
      continue;
    }
    if (options.email) {
      // A signature: a sign-off line and at most three short lines under it (a name, a team).
      const signOff = out.findIndex((l, i) => i > 0 && i >= out.length - 4 && SIGN_OFF.test(l.trim()));
      if (signOff > 0 && out.slice(signOff + 1).every((l) => l.trim().length <= 60)) {
        out = trimBlank(out.slice(0, signOff));
        changed = true;
      }
    }
  }
  return out;
}

/** Paragraphs, each a list of lines. */
function paragraphs(ls: string[]): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  for (const line of ls) {
    if (isBlank(line)) {
      if (current.length > 0) out.push(current);
      current = [];
    } else {
      current.push(line);
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * Several alternatives where one was asked for: paragraphs that each open with a variant's label
 * ("Wariant 1:", "**Option B**"), or with "1.", "2." where the tool asks for no list. The first
 * is kept, without its label.
 */
function firstVariant(ls: string[], numbered: boolean): { lines: string[]; variants: number } | null {
  const paras = paragraphs(ls);
  const opens = (p: string[]) => VARIANT_LABEL.test(p[0]!) || (numbered && NUMBERED.test(p[0]!));
  const starts = paras.map((p, i) => (opens(p) ? i : -1)).filter((i) => i >= 0);
  if (starts.length < 2 || starts[0] !== 0) return null;
  const first = paras.slice(0, starts[1]);
  const head = first[0]!;
  const label = VARIANT_LABEL.exec(head[0]!) ?? NUMBERED.exec(head[0]!);
  const opening = head[0]!.slice(label![0].length);
  const kept = [opening, ...head.slice(1)].filter((l, i) => i > 0 || l.trim() !== '');
  return {
    lines: [...kept, ...first.slice(1).flatMap((p) => ['', ...p])],
    variants: starts.length,
  };
}

/** Markdown emphasis and heading marks as plain text; hashtags and list dashes stay. */
export function plainTextOf(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(/^\s{0,3}#{1,6}\s+/u, '')
        .replace(/\*\*([^*\n]+)\*\*/gu, '$1')
        .replace(/__([^_\n]+)__/gu, '$1')
        .replace(/(^|[\s(„"])\*([^*\s][^*\n]*)\*(?=$|[\s.,;:!?)”"])/gu, '$1$2')
        .replace(/^(\s*)\*\s+/u, '$1- '),
    )
    .join('\n');
}

export function cleanAnswer(answer: string, options: CleanupOptions = {}): CleanedAnswer {
  let ls = unwrap(lines(answer.replace(/\r\n?/g, '\n')), options);
  let variants: number | undefined;
  const variant = firstVariant(ls, options.numberedVariants ?? false);
  if (variant) {
    ls = unwrap(variant.lines, options);
    variants = variant.variants;
  }
  let text = ls.join('\n').trim();
  if (options.plainText) text = plainTextOf(text);
  return variants === undefined ? { text } : { text, variants };
}
