import { describe, expect, it } from 'vitest';
import { parseAdAnswer } from './paid-ads.generator';

/**
 * The paid-ads answer parser on model output, which GEM does not control: the same split as
 * before, in time linear in the answer's length.
 */

// The heading pattern as it was before issue 11: right, but quadratic on a run of blanks
// (adjacent `[ \t]*` could share it). Kept here only as the reference the new one must agree with.
/* eslint-disable regexp/no-super-linear-backtracking -- the slow references, on short inputs only */
const previousCopyHeading =
  /^[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*|__)?[ \t]*(?:\d+[.)][ \t]*)?(?:tekst reklamy|treść reklamy|tekst reklamowy|copy reklamowe)[ \t]*(?:\*\*|__)?[ \t]*(?::[ \t]*(?:\*\*|__)?[ \t]*(.*))?$/im;
const previousAnalysisHeading =
  /^[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*|__)?[ \t]*(?:\d+[.)][ \t]*)?analiza\b[^\n]*$/im;
/* eslint-enable regexp/no-super-linear-backtracking */

function previousParse(answer: string) {
  const match = previousCopyHeading.exec(answer);
  if (!match) return { limited: answer.trim(), analysis: '' };
  const analysis = answer.slice(0, match.index).replace(previousAnalysisHeading, '').trim();
  const copy = `${match[1] ?? ''}\n${answer.slice(match.index + match[0].length)}`.trim();
  return { limited: copy, analysis };
}

const parse = (answer: string) => {
  const parsed = parseAdAnswer(answer);
  return { limited: parsed.limited, analysis: parsed.output(parsed.limited).analysis ?? '' };
};

describe('parseAdAnswer', () => {
  const headings = [
    '## Tekst reklamy',
    '##Tekst reklamy',
    '  ### Tekst reklamy  ',
    '**Tekst reklamy:** Kup teraz!',
    '**Tekst reklamy**: Kup teraz!',
    '__Tekst reklamy__',
    '2. Tekst reklamy: Kup teraz!',
    '2) **Tekst reklamy:**',
    '## 2. Treść reklamy',
    'TEKST REKLAMOWY:',
    'Copy reklamowe:   **  Kup teraz!',
    'tekst reklamy:\t\t___x',
    '## Tekst reklamy (600 znaków)',
    '####### Tekst reklamy',
    '*** Tekst reklamy',
    '12 Tekst reklamy',
    'Tekst reklamy:**',
    'Tekst reklamy: \r\nKup teraz!',
    'Tekst reklamy \u2028Kup',
  ];
  const analyses = ['## Analiza', '**Analiza:**', '1. Analiza rynku', '  ## ANALIZA  ', 'Analizator', ''];

  it('splits every heading form the same way as the previous pattern', () => {
    for (const heading of headings) {
      for (const analysis of analyses) {
        const answer = `${analysis}\n- Grupa docelowa: CFO.\n\n${heading}\n\nSprawdź raport 📊!\n`;
        expect(parse(answer), answer).toEqual(previousParse(answer));
        expect(parse(heading), heading).toEqual(previousParse(heading));
      }
    }
  });

  it('keeps the analysis and the copy apart', () => {
    const parsed = parseAdAnswer('## Analiza\n\n- CFO\n\n**Tekst reklamy:** Kup teraz 🚀\nDruga linia.');
    expect(parsed.limited).toBe('Kup teraz 🚀\n\nDruga linia.');
    expect(parsed.output('Kup')).toEqual({
      text: '## Analiza\n\n- CFO\n\n## Tekst reklamy\n\nKup',
      analysis: '- CFO',
      copy: 'Kup',
    });
  });

  it('takes time linear in the length of a crafted answer (long runs of blanks around heading marks)', () => {
    // Blanks where a heading's marks may be, then blanks after a heading's words: both were
    // quadratic in the copy heading's pattern, the first also in the analysis heading's.
    const crafted = (n: number) =>
      `${' \t'.repeat(n / 2)}x\n## Tekst reklamy${' '.repeat(n)}x\n## Tekst reklamy\nKup teraz.`;
    const time = (answer: string) => {
      const started = performance.now();
      parseAdAnswer(answer);
      return performance.now() - started;
    };
    // Ten times the input: linear takes about ten times as long, quadratic a hundred times.
    // The fastest of three runs; the smaller input's time is floored at 1 ms so that timer noise
    // on a tiny baseline cannot fail the test.
    const scalesLinearly = (n: number) => {
      const bound = 30 * Math.max(1, Math.min(time(crafted(n)), time(crafted(n)), time(crafted(n))));
      let best = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 3 && best >= bound; run += 1) {
        best = Math.min(best, time(crafted(10 * n)));
        if (best > 10 * bound) break; // hopeless: no need to wait for more runs
      }
      return { best, bound };
    };
    // Up to the review's input (60,000 blanks: 15 s before), then ten times that.
    for (const n of [6_000, 60_000]) {
      const { best, bound } = scalesLinearly(n);
      expect(best, `${10 * n} blanks`).toBeLessThan(bound);
    }
    expect(parseAdAnswer(crafted(60_000)).limited).toBe('Kup teraz.');
  });
});
