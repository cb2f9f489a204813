import { countCharacters } from '@gem/contracts/generators';

import { Badge } from '@/components/ui/badge';

import styles from './output-limit.module.css';

type OutputLimitProps = {
  /** The text the limit applies to (the article, or the ad copy only). */
  text: string;
  limit: number;
  shortened?: boolean;
  truncated?: boolean;
};

/** 'x / 600 characters', counted as a reader counts them, and how the limit was kept. */
export function OutputLimit({ text, limit, shortened, truncated }: OutputLimitProps) {
  const count = countCharacters(text);
  return (
    <p className={styles.limit}>
      <span className={count > limit ? styles.over : undefined}>
        {count} / {limit} characters
      </span>
      {truncated ? (
        <Badge>Cut at a sentence end to fit</Badge>
      ) : shortened ? (
        <Badge>Shortened to fit</Badge>
      ) : null}
    </p>
  );
}
