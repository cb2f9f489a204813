import { formatDate } from '@/lib/format-date';
import { formatInteger } from '@/lib/format-number';

import { useAiAllowance } from '../get-ai-allowance';
import styles from './ai-allowance-line.module.css';

/** Below this share of the allowance left, the line asks for attention. */
const LOW_SHARE = 0.2;

/**
 * On every AI tool page, beside the AI service notice: how many of the user's monthly AI tokens
 * are left ('12,340 of 500,000 tokens left this month'), with a warning look when under a fifth
 * is left, and the server's words when none is. Nothing when there is no limit, or while it is
 * unknown. Generations refresh it as they end (refreshAiAllowance).
 */
export function AiAllowanceLine() {
  const { data } = useAiAllowance();
  if (!data || data.monthlyTokens === null || data.remainingTokens === null) return null;
  const { monthlyTokens, remainingTokens } = data;
  const low = remainingTokens < monthlyTokens * LOW_SHARE;
  const spent = remainingTokens === 0;
  // The month is counted in UTC: the day it starts again, as that calendar day.
  const resets = new Date(data.resetsAt);
  const resetsOn = new Date(resets.getUTCFullYear(), resets.getUTCMonth(), resets.getUTCDate());
  return (
    <p className={`${styles.line} ${low ? styles.low : ''}`} role="status" data-testid="ai-allowance">
      <span className={styles.figure}>
        {formatInteger(remainingTokens)} of {formatInteger(monthlyTokens)}{' '}
        {monthlyTokens === 1 ? 'token' : 'tokens'} left this month
      </span>
      <span className={styles.detail}>
        {spent
          ? ' Your monthly AI allowance is used up. Ask your administrator to raise it.'
          : ` Resets on ${formatDate(resetsOn)}.`}
      </span>
    </p>
  );
}
