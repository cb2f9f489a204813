import type { CampaignFacts } from '@gem/contracts/campaign-audience-builder';
import { segmentsReply } from '@gem/test-servers/segment-replies';
import { describe, expect, it } from 'vitest';
import {
  checkAnalysis,
  checkText,
  contradictionsIn,
  languageOf,
  sentencesOf,
} from './campaign-audience-builder.claims';

/**
 * The checker of the AI analysis's figures (issue 27, item 8): shares, "x z y" and counts of
 * people against the CRM's numbers of what each sentence names, in the model's own phrasing.
 */

const facts: CampaignFacts = {
  campaign: {
    id: '701Qy00000AbCdEfGH',
    name: 'Spring CFO Webinar',
    type: 'Webinar',
    startDate: '2026-03-12',
    objective: null,
    lineOfService: 'Advisory',
  },
  // 25,0% responded.
  members: 1_600,
  responders: 400,
  byIndustry: [{ value: 'Financial Services', responders: 300, nonResponders: 900 }],
  bySubIndustry: [
    // 30 z 80: 37,5%; 5,0% of the members, 7,5% of the responders.
    { value: 'Commercial Banking', responders: 30, nonResponders: 50 },
    // 12 z 52: 23,1%.
    { value: 'Insurance', responders: 12, nonResponders: 40 },
  ],
  // 25 z 45: 55,6%.
  byTitle: [{ value: 'CFO', responders: 25, nonResponders: 20 }],
  byRole: [{ value: 'Finance', responders: 40, nonResponders: 60 }],
  byWorkArea: [],
  // 30 z 90: 33,3%.
  byEmployees: [
    { value: '50-249', responders: 30, nonResponders: 60 },
    { value: '1000+', responders: 8, nonResponders: 42 },
  ],
  // 20 z 90: 22,2%.
  byRevenue: [{ value: '10M-50M', responders: 20, nonResponders: 70 }],
  revenueCurrency: 'PLN',
  pastCampaigns: [
    {
      id: '701Qy00000PastCmp1',
      name: 'CFO Breakfast Kraków 2025',
      startDate: '2025-10-01',
      objective: null,
      lineOfService: 'Advisory',
      // 48 z 120: 40,0%.
      members: 120,
      responders: 48,
    },
  ],
};

/** Every figure of a text: as written, its verdict, and what it was read against. */
function figures(text: string) {
  return checkText(text, facts).paragraphs.flatMap((sentences) =>
    sentences.flatMap((sentence) =>
      sentence.figures.map((figure) => ({
        figure: sentence.text.slice(figure.start, figure.end),
        verdict: figure.verdict,
        subject: figure.fact?.subject ?? null,
      })),
    ),
  );
}

const matches = (figure: string, subject: string) => ({ figure, verdict: 'matches', subject });
const contradicts = (figure: string, subject: string) => ({ figure, verdict: 'contradicts', subject });
const unchecked = (figure: string) => ({ figure, verdict: 'unchecked', subject: null });

describe('figures that match the CRM', () => {
  it('reads "30 z 80" and "37,5%" in a sentence naming the group, as the prompt asks', () => {
    expect(figures('W podbranży Commercial Banking odpowiedziało 30 z 80 uczestników (37,5%).')).toEqual([
      matches('30 z 80', 'Commercial Banking'),
      matches('37,5%', 'Commercial Banking'),
    ]);
  });

  it('takes a share written with a comma or a dot, with a space or in words, or rounded to a whole number', () => {
    for (const share of ['37,5%', '37.5%', '37,5 %', '37,5\u00a0%', '37,5 proc.', '37,5 procent', '38%']) {
      expect(figures(`Commercial Banking: ${share} odpowiedzi.`)).toEqual([
        matches(share, 'Commercial Banking'),
      ]);
    }
  });

  it('takes the other sides of a group: who did not respond, its part of the members and of the responders', () => {
    expect(
      figures(
        'W Commercial Banking 62,5% nie odpowiedziało, 50 z 80 milczało; to 5,0% uczestników i 7,5% odpowiedzi.',
      ),
    ).toEqual([
      matches('62,5%', 'Commercial Banking'),
      matches('50 z 80', 'Commercial Banking'),
      matches('5,0%', 'Commercial Banking'),
      matches('7,5%', 'Commercial Banking'),
    ]);
  });

  it('reads "x na y", "x/y", "x of y", and a share in small numbers within half a step', () => {
    expect(figures('Insurance: 12 na 52, CFO: 25/45.')).toEqual([
      matches('12 na 52', 'Insurance'),
      matches('25/45', 'CFO'),
    ]);
    expect(figures('W Commercial Banking odpowiada 4 z 10 osób.')).toEqual([
      matches('4 z 10', 'Commercial Banking'),
    ]);
  });

  it('checks a count of people against the group’s members, responders and the rest', () => {
    expect(figures('W Commercial Banking odpowiedziało 30 osób, a 50 kontaktów nie.')).toEqual([
      matches('30', 'Commercial Banking'),
      matches('50', 'Commercial Banking'),
    ]);
  });

  it('reads the campaign’s totals by its words or its name, thousands with a space, and beside a group', () => {
    expect(figures('W całej kampanii odpowiedziało 400 z 1 600 uczestników (25,0%).')).toEqual([
      matches('400 z 1 600', 'Spring CFO Webinar'),
      matches('25,0%', 'Spring CFO Webinar'),
    ]);
    expect(figures('Spring CFO Webinar ma 1\u00a0600 uczestników.')).toEqual([
      matches('1\u00a0600', 'Spring CFO Webinar'),
    ]);
    // A sentence that names nothing else is about the campaign.
    expect(figures('Odpowiedziało 25% zaproszonych.')).toEqual([matches('25%', 'Spring CFO Webinar')]);
    // The average beside a group's figure, in any words.
    expect(figures('Commercial Banking odpowiadał częściej (37,5%) niż przeciętnie (25,0%).')).toEqual([
      matches('37,5%', 'Commercial Banking'),
      matches('25,0%', 'Spring CFO Webinar'),
    ]);
  });

  it('reads size bands by key, with a dash, or as the page’s label; their own numbers are no figures', () => {
    expect(figures('Firmy 50–249 pracowników: 30 z 90 (33,3%).')).toEqual([
      matches('30 z 90', '50–249 employees'),
      matches('33,3%', '50–249 employees'),
    ]);
    expect(figures('Przedział 50-249 odpowiadał w 33,3%, a 1000+ w 16,0%.')).toEqual([
      matches('33,3%', '50–249 employees'),
      matches('16,0%', '1,000+ employees'),
    ]);
    expect(figures('Firmy z przychodami PLN 10M–50M: 22,2%.')).toEqual([matches('22,2%', 'PLN 10M–50M')]);
  });

  it('reads a past campaign by its name (its year is part of it) before a title inside the name', () => {
    expect(figures('CFO Breakfast Kraków 2025 zebrało 48 z 120 odpowiedzi (40,0%).')).toEqual([
      matches('48 z 120', 'CFO Breakfast Kraków 2025'),
      matches('40,0%', 'CFO Breakfast Kraków 2025'),
    ]);
  });

  it('finds the names in any case', () => {
    expect(figures('COMMERCIAL BANKING: 37,5%; insurance: 23,1%.')).toEqual([
      matches('37,5%', 'Commercial Banking'),
      matches('23,1%', 'Insurance'),
    ]);
  });
});

describe('figures that contradict the CRM', () => {
  it('marks a wrong share or "x z y", read against the group the sentence names', () => {
    expect(figures('W podbranży Insurance odpowiedziało 20 z 52 uczestników (45%).')).toEqual([
      contradicts('20 z 52', 'Insurance'),
      contradicts('45%', 'Insurance'),
    ]);
  });

  it('does not let a share rounded too far pass: 36% is not 37,5%, nor is 37,4%', () => {
    expect(figures('Commercial Banking: 36%.')).toEqual([contradicts('36%', 'Commercial Banking')]);
    expect(figures('Commercial Banking: 37,4%.')).toEqual([contradicts('37,4%', 'Commercial Banking')]);
  });

  it('reads a wrong figure against the group named nearest before it, else after it', () => {
    expect(figures('Commercial Banking (37,5%) wyprzedza Insurance (35,0%).')).toEqual([
      matches('37,5%', 'Commercial Banking'),
      contradicts('35,0%', 'Insurance'),
    ]);
    expect(figures('Aż 60% odpowiedzi dał Commercial Banking.')).toEqual([
      contradicts('60%', 'Commercial Banking'),
    ]);
  });

  it('marks a wrong average of the campaign, and a wrong share of a past campaign', () => {
    expect(figures('Średnia kampanii wyniosła 30%.')).toEqual([contradicts('30%', 'Spring CFO Webinar')]);
    expect(figures('CFO Breakfast Kraków 2025 miało 52% odpowiedzi.')).toEqual([
      contradicts('52%', 'CFO Breakfast Kraków 2025'),
    ]);
  });
});

describe('figures GEM leaves unchecked, and numbers that are no figures', () => {
  it('leaves a share about nothing GEM counts unchecked', () => {
    expect(figures('Badania branżowe mówią, że 60% decydentów czyta newslettery.')).toEqual([
      unchecked('60%'),
    ]);
  });

  it('leaves hedged figures and changes unchecked', () => {
    expect(
      figures(
        'W Commercial Banking odpowiedziało ponad 30%, ok. 40% otwiera e-maile, a wskaźnik może wzrosnąć o 10% lub do 45%.',
      ),
    ).toEqual([unchecked('30%'), unchecked('40%'), unchecked('10%'), unchecked('45%')]);
  });

  it('leaves a count that is none of the numbers unchecked: it may be a plan', () => {
    expect(figures('Z Commercial Banking warto zaprosić 200 osób.')).toEqual([unchecked('200')]);
  });

  it('keeps plain numbers, years, dates, sizes and words with digits as text', () => {
    expect(
      figures(
        'W 2026 r. wyślij 3 e-maile w ciągu 2 tygodni do firm od 250 pracowników z Insurance, o NIS2 i B2B, 12.05.',
      ),
    ).toEqual([]);
  });

  it('finds no figure in the stand-in model’s answer, which has none', () => {
    const reply = segmentsReply({ structured: undefined });
    expect(figures(String(reply.explanation))).toEqual([]);
    expect(figures(String(reply.approach))).toEqual([]);
  });
});

describe('sentences and paragraphs', () => {
  it('does not end a sentence after an abbreviation, an initial, or inside a decimal', () => {
    expect(
      sentencesOf(
        'Warto zacząć od grup, np. Commercial Banking (37,5%), m.in. CFO. Ok. 3.5 tys. osób to dużo. ' +
          'W 2025 r. J. Kowalski pisał, e.g. Insurance. Koniec!',
      ),
    ).toEqual([
      'Warto zacząć od grup, np. Commercial Banking (37,5%), m.in. CFO.',
      'Ok. 3.5 tys. osób to dużo.',
      'W 2025 r. J. Kowalski pisał, e.g. Insurance.',
      'Koniec!',
    ]);
  });

  it('ends a sentence before a capital, a digit, a quote or a dash, after a closing quote or bracket', () => {
    expect(
      sentencesOf('Pierwsze zdanie (37,5%). 30 z 80 to wynik. Czy warto? „Tak.” – mówi dane… Dalej'),
    ).toEqual([
      'Pierwsze zdanie (37,5%).',
      '30 z 80 to wynik.',
      'Czy warto?',
      '„Tak.”',
      '– mówi dane…',
      'Dalej',
    ]);
    expect(sentencesOf('Wskaźnik 37,5% to dużo. a to nie koniec.')).toEqual([
      'Wskaźnik 37,5% to dużo. a to nie koniec.',
    ]);
  });

  it('keeps paragraphs between blank lines, a line break inside one read as a space', () => {
    const text = checkText('Pierwszy akapit,\ndalej. Drugie zdanie.\n\n\n  Drugi akapit.  \n', facts);
    expect(text.paragraphs.map((p) => p.map((s) => s.text))).toEqual([
      ['Pierwszy akapit, dalej.', 'Drugie zdanie.'],
      ['Drugi akapit.'],
    ]);
  });

  it('checks each sentence on its own: a group named in the sentence before does not count', () => {
    expect(figures('Commercial Banking wyróżnia się. Odpowiedziało tam 45%.')).toEqual([unchecked('45%')]);
  });
});

describe('real models’ phrasing', () => {
  it('GPT-4o: figures in brackets, a group per clause, one figure misremembered', () => {
    const text =
      'Najwyższy wskaźnik odpowiedzi odnotowano w podbranży Commercial Banking – 30 z 80 uczestników (37,5%), ' +
      'czyli wyraźnie powyżej średniej kampanii (25,0%). Dobrze reagowali także dyrektorzy finansowi (CFO: 25 z 45, 55,6%).\n\n' +
      'Firmy zatrudniające 50–249 pracowników odpowiadały w 33,3%, a Insurance tylko w 28,1%. ' +
      'Wcześniejsza kampania CFO Breakfast Kraków 2025 osiągnęła 40,0%, co potwierdza potencjał segmentu.';
    expect(figures(text)).toEqual([
      matches('30 z 80', 'Commercial Banking'),
      matches('37,5%', 'Commercial Banking'),
      matches('25,0%', 'Spring CFO Webinar'),
      matches('25 z 45', 'CFO'),
      matches('55,6%', 'CFO'),
      matches('33,3%', '50–249 employees'),
      contradicts('28,1%', 'Insurance'),
      matches('40,0%', 'CFO Breakfast Kraków 2025'),
    ]);
  });

  it('Claude: the names in quotes, a list after a colon, a whole-number share', () => {
    const text =
      'Dane wskazują na trzy grupy: „Commercial Banking” (38% odpowiedzi), „Insurance” (23%) oraz role „Finance” (40 z 100). ' +
      'Warto skupić się na Commercial Banking, bo to 7,5% wszystkich odpowiedzi w kampanii.';
    expect(figures(text)).toEqual([
      matches('38%', 'Commercial Banking'),
      matches('23%', 'Insurance'),
      matches('40 z 100', 'Finance'),
      matches('7,5%', 'Commercial Banking'),
    ]);
  });

  it('Llama 3 in English despite the prompt: "30 of 80", "37.5%", "people"', () => {
    const text =
      'In Commercial Banking 30 of 80 members responded (37.5%), well above the campaign average of 25%. ' +
      'Insurance reached 35%, and 25 people responded among CFO contacts.';
    expect(figures(text)).toEqual([
      matches('30 of 80', 'Commercial Banking'),
      matches('37.5%', 'Commercial Banking'),
      matches('25%', 'Spring CFO Webinar'),
      contradicts('35%', 'Insurance'),
      matches('25', 'CFO'),
    ]);
    expect(languageOf(text)).toBe('en');
  });

  it('Mistral: an approach with channels, days and a target, none of them a fact', () => {
    const text =
      'Zaproś segment Commercial Banking na LinkedIn i w newsletterze, 2 tygodnie przed wydarzeniem. ' +
      'Po 3 dniach wyślij przypomnienie do 50 osób, które nie odpowiedziały; celem jest ok. 45% odpowiedzi.';
    expect(figures(text)).toEqual([unchecked('50'), unchecked('45%')]);
  });
});

describe('the analysis as the response carries it', () => {
  it('names the language, checks both texts, and lists what contradicts the CRM for the record', () => {
    const analysis = checkAnalysis(
      {
        explanation: 'W Commercial Banking odpowiedziało 30 z 80 uczestników (45,0%).',
        approach: 'Napisz do CFO na LinkedIn; odpowiedziało 55,6% z nich.',
      },
      facts,
    );
    expect(analysis.language).toBe('pl');
    expect(analysis.approach.paragraphs[0]![0]!.figures).toEqual([
      expect.objectContaining({ verdict: 'matches', fact: { subject: 'CFO', members: 45, responders: 25 } }),
    ]);
    expect(contradictionsIn(analysis)).toEqual([
      { stated: '45,0%', fact: { subject: 'Commercial Banking', members: 80, responders: 30 } },
    ]);
  });

  it('tells Polish from English by their common words, not by the CRM’s names in them', () => {
    expect(languageOf('Najlepiej odpowiadali dyrektorzy finansowi z Commercial Banking and Insurance.')).toBe(
      'pl',
    );
    expect(languageOf('Finance leaders in the Przetwórstwo żywności sub-industry responded best.')).toBe(
      'en',
    );
  });
});
