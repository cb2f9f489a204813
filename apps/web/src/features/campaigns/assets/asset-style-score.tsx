import type { StyleCheck } from '@gem/contracts/brand-voice';

import { formatInteger as formatCount } from '@/lib/format-number';

import styles from './asset-style.module.css';

/**
 * How a score reads at a glance: good from 95 (a banned term alone costs more), fair from 75,
 * below that it needs work.
 */
export type ScoreBand = 'good' | 'fair' | 'poor';

export function scoreBand(score: number): ScoreBand {
  return score >= 95 ? 'good' : score >= 75 ? 'fair' : 'poor';
}

const bandWords: Record<ScoreBand, string> = {
  good: 'good',
  fair: 'fair',
  poor: 'needs work',
};

/** "Score 86 · 3 findings". */
export function styleScoreText(style: StyleCheck): string {
  const count = style.findings.length;
  return `Score ${formatCount(Math.round(style.score))} · ${
    count === 0 ? 'no findings' : `${formatCount(count)} ${count === 1 ? 'finding' : 'findings'}`
  }`;
}

/**
 * A generation's brand-voice score and how many findings it has (issue 31), as a small pill
 * coloured by its band (the band is said in words to screen readers as well).
 */
export function StyleScore({ style }: { style: StyleCheck }) {
  const band = scoreBand(style.score);
  return (
    <span className={styles.score} data-band={band}>
      {styleScoreText(style)}
      <span className="visually-hidden"> (brand voice: {bandWords[band]})</span>
    </span>
  );
}
