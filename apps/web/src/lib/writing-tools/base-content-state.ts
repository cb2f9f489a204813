import { useState } from 'react';
import { useLocation } from 'react-router';

/**
 * A writing tool opened with its base content already written ('Use in…' on a Market Research
 * item or a competitor search result, issue 29). The text rides in the navigation's state, not
 * the URL: it can be long, and it stays out of the address bar, logs and shared links.
 */
export type BaseContentState = { baseContent: string };

/** The navigation state that opens a writing tool with `baseContent` in its field. */
export const baseContentState = (baseContent: string): BaseContentState => ({ baseContent });

function baseContentOf(state: unknown): string {
  if (typeof state !== 'object' || state === null || !('baseContent' in state)) return '';
  const { baseContent } = state;
  return typeof baseContent === 'string' ? baseContent : '';
}

/**
 * The base content field's state, starting from what the navigation brought (or empty). Only
 * the first value comes from there: the field is the user's to edit from then on.
 */
export function useBaseContent(): [string, (content: string) => void] {
  const location = useLocation();
  const [content, setContent] = useState(() => baseContentOf(location.state));
  return [content, setContent];
}
