import { useEffect, type RefObject } from 'react';

/**
 * Whether this page load started by hydrating prerendered HTML (main.tsx says so before the
 * first render). Components whose first client render must match that HTML, and then change,
 * read it when they mount: hydrating, they start from what the HTML shows and switch in a
 * transition afterwards; on any other render they start from the real value at once.
 */
let hydrating = false;

export function markHydrating(): void {
  hydrating = true;
}

export function isHydrating(): boolean {
  return hydrating;
}

/**
 * A prerendered field can be typed in (or a slider moved) before React takes the page over, on
 * a slow connection or a busy laptop. React hydrates a controlled field without reading it, so
 * what was typed would show in the box but be missing from the state (no preview, nothing
 * sent), and the next render would wipe it. This hands such a value to `onValueChange` once,
 * as the field mounts; from then on React's own `onChange` sees every change.
 */
export function useValueTypedBeforeHydration(
  ref: RefObject<HTMLInputElement | HTMLTextAreaElement | null>,
  value: string,
  onValueChange: (value: string) => void,
): void {
  useEffect(() => {
    const element = ref.current;
    if (hydrating && element && element.value !== value) onValueChange(element.value);
    // Only at mount: a rendered field's value is React's from then on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
