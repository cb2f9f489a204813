import { countCharacters, countWords } from '@gem/contracts/text-rules';

import { Badge } from '@/components/ui/badge';

import styles from './output-limit.module.css';

type OutputLimitProps = {
  /** The text the limit applies to (the article, or the ad copy only). */
  text: string;
  limit: number;
  /** Characters as a reader counts them (grapheme clusters), or words without hashtags (a post). */
  unit?: 'characters' | 'words';
  shortened?: boolean;
  truncated?: boolean;
};

/** 'x / 600 characters' (or 'x / 200 words'), counted as the server counts them, and how the limit was kept. */
export function OutputLimit({ text, limit, unit = 'characters', shortened, truncated }: OutputLimitProps) {
  const count = unit === 'words' ? countWords(text) : countCharacters(text);
  return (
    <p className={styles.limit}>
      <span className={count > limit ? styles.over : undefined}>
        {count} / {limit} {unit}
      </span>
      {truncated ? (
        <Badge>{unit === 'words' ? 'Cut to fit' : 'Cut at a sentence end to fit'}</Badge>
      ) : shortened ? (
        <Badge>Shortened to fit</Badge>
      ) : null}
    </p>
  );
}
