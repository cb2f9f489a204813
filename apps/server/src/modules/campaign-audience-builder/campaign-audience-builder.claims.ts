import {
  sizeBandLabel,
  sizeDimensions,
  type Analysis,
  type AnalysisFigure,
  type AnalysisSentence,
  type CampaignFacts,
  type CheckedText,
  type ValueCount,
} from '@gem/contracts/campaign-audience-builder';

/**
 * The figures of the model's analysis checked against the facts GEM sent it (issue 27): the
 * numbers must be the bars' numbers. A deterministic reading, no model. The text is split into
 * sentences; in each, the names of what the facts count (a sub-industry, a title, a role, a work
 * area, a size band, a past campaign, the campaign itself) are found, and every figure ("37,5%",
 * "30 z 80", "30 uczestników") is compared with the CRM's numbers of the subjects the sentence
 * names, or with the campaign's totals when it names none of them:
 * - `matches`: it is one of those numbers (a share within rounding);
 * - `contradicts`: a share or an "x z y" that is none of them; the page shows the CRM's numbers
 *   of the subject named nearest before it;
 * - `unchecked`: the sentence names nothing GEM counts and it is not the campaign's; it is
 *   hedged ("ok. 30%", "ponad 30%", "o 5 punktów"); or a count of people that is none of the
 *   numbers, which may be a plan ("zaproś 50 osób") rather than a claim.
 * Numbers that are no share or count of people ("3 e-maile", "2026") are left as text.
 */

/** What a sentence may name, with the CRM's counts. */
type Subject = {
  /** As the page names it. */
  name: string;
  /** The spellings looked for, lower-cased, each a whole word or phrase. */
  spellings: string[];
  members: number;
  responders: number;
  /** A value's share of the campaign's members and responders is a figure of it too. */
  partOfCampaign: boolean;
};

type Mention = { subject: Subject; start: number; end: number };

/** Words that name this campaign as a whole: its average, its totals (singular "kampanii" only). */
const campaignWords = [
  'kampania',
  'kampanii',
  'kampanię',
  'kampanią',
  'średnia',
  'średniej',
  'średnią',
  'ogółem',
  'ogółu',
  'łącznie',
  'campaign',
  'average',
  'overall',
];

/** What follows a count of people: "30 osób", "12 uczestników", "5 odpowiedzi". */
const peopleWords =
  /^(?:osob|osób|uczestni|kontakt|odpowiedz|respondent|people|members?|responders?|contacts?)/u;

/** Words before a figure that make it no exact statement: "ok. 30%", "ponad 30%", "o 15%", "do 45%". */
const hedges = new Set(
  [
    'o ok około blisko prawie niemal ponad powyżej poniżej przeszło niż do nawet',
    'about around approximately nearly almost over above below under than by to',
  ]
    .join(' ')
    .split(' '),
);

/** Abbreviations a sentence does not end after. */
const abbreviations = new Set(
  'np tj in itd itp ok tzw godz tys mln mld proc pkt wg ds dot zob ww'.split(' '),
);

const lower = (text: string) => text.toLocaleLowerCase('pl');
const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\d]/u.test(c);

function subjectsOf(facts: CampaignFacts): { subjects: Subject[]; campaign: Subject } {
  const value = (count: ValueCount, spellings: string[] = [count.value]): Subject => ({
    name: spellings[0]!,
    spellings: [...new Set(spellings.map(lower))],
    members: count.responders + count.nonResponders,
    responders: count.responders,
    partOfCampaign: true,
  });
  const campaign: Subject = {
    name: facts.campaign.name,
    spellings: [lower(facts.campaign.name), lower(facts.campaign.id), ...campaignWords],
    members: facts.members,
    responders: facts.responders,
    partOfCampaign: false,
  };
  const subjects: Subject[] = [
    ...[facts.byIndustry, facts.bySubIndustry, facts.byTitle, facts.byRole, facts.byWorkArea].flatMap(
      (list) => list.map((count) => value(count)),
    ),
    ...sizeDimensions.flatMap((dimension) =>
      (dimension === 'employeeBands' ? facts.byEmployees : facts.byRevenue).map((count) => {
        const label = sizeBandLabel(dimension, count.value, facts.revenueCurrency);
        // The model sees the keys ("50-249"); it may write them with a dash, or as the label.
        return value(count, [
          label,
          count.value,
          count.value.replace('-', '–'),
          sizeBandLabel(dimension, count.value).replace(' employees', ''),
        ]);
      }),
    ),
    ...facts.pastCampaigns.map((c) => ({
      name: c.name,
      spellings: [lower(c.name), lower(c.id)],
      members: c.members,
      responders: c.responders,
      partOfCampaign: false,
    })),
    campaign,
  ];
  return { subjects, campaign };
}

/** Where each subject is named in a sentence; a longer name wins over one inside it ("CFO Breakfast" over "CFO"). */
function mentionsIn(sentence: string, subjects: Subject[]): Mention[] {
  const text = lower(sentence);
  const found: Mention[] = [];
  for (const subject of subjects) {
    for (const spelling of subject.spellings) {
      if (spelling.length < 2) continue;
      for (let at = text.indexOf(spelling); at >= 0; at = text.indexOf(spelling, at + 1)) {
        const end = at + spelling.length;
        if (!isWordChar(text[at - 1]) && !isWordChar(text[end])) found.push({ subject, start: at, end });
      }
    }
  }
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: Mention[] = [];
  for (const mention of found) {
    if (!kept.some((k) => mention.start < k.end && k.start < mention.end)) kept.push(mention);
  }
  return kept.sort((a, b) => a.start - b.start);
}

type NumberToken = { start: number; end: number; value: number; decimals: boolean };

/**
 * A number: "12", "12,5" or "12.5" (one or two decimals), "1 234" or "1.234" (thousands); not
 * digits inside a word ("NIS2", "B2B", "3D").
 */
const numberPattern =
  /(?<![\p{L}\d])(\d{1,3}(?:[ \u00a0\u202f.,]\d{3})+|\d+)(?:[.,](\d{1,2}))?(?![\p{L}\d])/gu;

/** The numbers of a sentence, but those inside a mention ("50–249", "Q3 Forum 2025"). */
function numbersIn(sentence: string, mentions: Mention[]): NumberToken[] {
  return [...sentence.matchAll(numberPattern)]
    .map((m) => {
      const whole = m[1]!.replace(/\D/g, '');
      const fraction = m[2];
      return {
        start: m.index,
        end: m.index + m[0].length,
        value: Number(fraction === undefined ? whole : `${whole}.${fraction}`),
        decimals: fraction !== undefined,
      };
    })
    .filter((n) => !mentions.some((m) => n.start < m.end && m.start < n.end));
}

type Figure = { start: number; end: number; hedged: boolean } & (
  | { kind: 'percent'; value: number; decimals: boolean }
  | { kind: 'fraction'; part: number; whole: number }
  | { kind: 'count'; value: number }
);

/** What the numbers state: shares, "x z y", counts of people. The rest is no figure. */
function figuresIn(sentence: string, numbers: NumberToken[]): Figure[] {
  const figures: Figure[] = [];
  for (let n = 0; n < numbers.length; n += 1) {
    const token = numbers[n]!;
    const before = lower(sentence.slice(0, token.start)).match(/(?<!\p{L})(\p{L}+)\.?\s*$/u)?.[1] ?? '';
    const hedged = hedges.has(before);
    const rest = sentence.slice(token.end);
    // "37,5%", "37,5 %", "37,5 proc."; "5 punktów procentowych" is a difference, no figure.
    const unit = /^\s*(?:%|proc\p{L}*\.?)/u.exec(rest);
    if (unit) {
      const { value, decimals } = token;
      const end = token.end + unit[0].length;
      figures.push({ kind: 'percent', start: token.start, end, value, decimals, hedged });
      continue;
    }
    // "30 z 80", "30 na 80", "30/80", "30 of 80".
    const next = numbers[n + 1];
    const between = next ? lower(sentence.slice(token.end, next.start)).trim() : null;
    if (next && between !== null && ['z', 'ze', 'na', '/', 'of'].includes(between)) {
      figures.push({
        kind: 'fraction',
        start: token.start,
        end: next.end,
        part: token.value,
        whole: next.value,
        hedged,
      });
      n += 1;
      continue;
    }
    const word = lower(rest.match(/^\s*(\p{L}+)/u)?.[1] ?? '');
    if (!token.decimals && peopleWords.test(word)) {
      figures.push({ kind: 'count', start: token.start, end: token.end, value: token.value, hedged });
    }
  }
  return figures;
}

/** Does the figure state one of the subject's numbers (as the bars show them)? */
function fits(figure: Figure, subject: Subject, campaign: Subject): boolean {
  const { members, responders } = subject;
  // Who responded, who did not, and the subject's part of the campaign's members and responders.
  const pairs: [number, number][] = [
    [responders, members],
    [members - responders, members],
  ];
  if (subject.partOfCampaign) pairs.push([members, campaign.members], [responders, campaign.responders]);
  const shares = pairs.filter(([, whole]) => whole > 0).map(([part, whole]) => part / whole);
  switch (figure.kind) {
    case 'percent': {
      // Rounded to the page's one decimal, or to a whole number.
      const slack = figure.decimals ? 0.051 : 0.501;
      return shares.some((share) => Math.abs(share * 100 - figure.value) <= slack);
    }
    case 'fraction':
      return (
        pairs.some(([part, whole]) => part === figure.part && whole === figure.whole) ||
        // "4 z 10": a share in small numbers, within half a step.
        (figure.whole > 0 &&
          figure.whole <= 20 &&
          shares.some((share) => Math.abs(share - figure.part / figure.whole) <= 1 / (2 * figure.whole)))
      );
    case 'count':
      return [members, responders, members - responders].includes(figure.value);
  }
}

/** A figure's verdict among the subjects its sentence names (the campaign's totals when it names none). */
function verdictOf(
  figure: Figure,
  mentions: Mention[],
  campaign: Subject,
): Omit<AnalysisFigure, 'start' | 'end'> {
  const factOf = (subject: Subject) => ({
    subject: subject.name,
    members: subject.members,
    responders: subject.responders,
  });
  // The campaign's totals may be stated beside any value ("37,5% wobec 25,0%").
  const named = [...new Set([...mentions.map((m) => m.subject), campaign])];
  const fitting = named.find((subject) => fits(figure, subject, campaign));
  if (fitting) return { verdict: 'matches', fact: factOf(fitting) };
  if (figure.hedged || figure.kind === 'count' || mentions.length === 0)
    return { verdict: 'unchecked', fact: null };
  // Read against the value named nearest before the figure (else after it), the campaign last.
  const values = mentions.filter((m) => m.subject !== campaign);
  const pool = values.length > 0 ? values : mentions;
  const nearest =
    pool.filter((m) => m.end <= figure.start).at(-1) ?? pool.find((m) => m.start >= figure.end) ?? pool[0]!;
  return { verdict: 'contradicts', fact: factOf(nearest.subject) };
}

/** A paragraph's sentences: each ends at . ! ? … followed by a space and a capital, a digit, a quote or a dash. */
export function sentencesOf(paragraph: string): string[] {
  const sentences: string[] = [];
  const ends = /(?<![.!?…])([.!?…]+)["”)]*\s+(?=[\p{Lu}\d„"–-])/gu;
  let start = 0;
  for (const end of paragraph.matchAll(ends)) {
    if (end[1] === '.') {
      // "np.", "m.in.", "J.", "e.g." do not end a sentence.
      const word = paragraph.slice(0, end.index).match(/(?<!\p{L})\p{L}+$/u)?.[0] ?? '';
      if (abbreviations.has(lower(word)) || word.length === 1) continue;
    }
    sentences.push(paragraph.slice(start, end.index + end[0].length).trim());
    start = end.index + end[0].length;
  }
  const rest = paragraph.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}

/** Paragraphs: runs of lines between blank lines, each as one line of text. */
function paragraphsOf(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .join(' '),
    )
    .filter((paragraph) => paragraph !== '');
}

/** The model's text in paragraphs of sentences, each figure with its verdict. */
export function checkText(text: string, facts: CampaignFacts): CheckedText {
  const { subjects, campaign } = subjectsOf(facts);
  const paragraphs = paragraphsOf(text).map((paragraph) =>
    sentencesOf(paragraph).map((sentence): AnalysisSentence => {
      const mentions = mentionsIn(sentence, subjects);
      const figures = figuresIn(sentence, numbersIn(sentence, mentions));
      return {
        text: sentence,
        figures: figures.map((figure) => ({
          start: figure.start,
          end: figure.end,
          ...verdictOf(figure, mentions, campaign),
        })),
      };
    }),
  );
  return { paragraphs };
}

/** Polish or English, by which language's common short words the text uses more (a model may ignore the prompt's language). */
export function languageOf(text: string): Analysis['language'] {
  const words = lower(text).match(/\p{L}+/gu) ?? [];
  const count = (list: string[]) => words.filter((word) => list.includes(word)).length;
  const polish = count([
    'i',
    'w',
    'z',
    'ze',
    'na',
    'się',
    'że',
    'do',
    'nie',
    'jest',
    'oraz',
    'dla',
    'od',
    'po',
  ]);
  const english = count(['the', 'and', 'of', 'in', 'to', 'with', 'for', 'is', 'are', 'that', 'on', 'by']);
  return english > polish ? 'en' : 'pl';
}

/** The explanation and the approach as the page shows them: their language, every figure checked. */
export function checkAnalysis(
  answer: { explanation: string; approach: string },
  facts: CampaignFacts,
): Analysis {
  return {
    language: languageOf(`${answer.explanation}\n${answer.approach}`),
    explanation: checkText(answer.explanation, facts),
    approach: checkText(answer.approach, facts),
  };
}

/** The figures that contradict the CRM, as the record keeps them: what the model said, and the CRM's numbers. */
export function contradictionsIn(analysis: Analysis) {
  return [analysis.explanation, analysis.approach]
    .flatMap((text) => text.paragraphs.flat())
    .flatMap((sentence) =>
      sentence.figures
        .filter((figure) => figure.verdict === 'contradicts')
        .map((figure) => ({ stated: sentence.text.slice(figure.start, figure.end), fact: figure.fact })),
    );
}
