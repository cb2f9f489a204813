import { useEffect } from 'react';

const appName = 'GEM';

/** "<page> · GEM", the tab title of a page. */
export const documentTitle = (page: string) => `${page} · ${appName}`;

// Prerendering runs no effects; it reads each page's title through this instead.
let prerenderedTitle: ((title: string) => void) | undefined;

/** While prerendering (app/prerender.tsx): hands each page's title to `sink`. */
export function collectDocumentTitles(sink: ((title: string) => void) | undefined): void {
  prerenderedTitle = sink;
}

/** Sets the tab title to "<page> · GEM" while the page is shown. */
export function useDocumentTitle(page: string): void {
  if (typeof document === 'undefined') prerenderedTitle?.(documentTitle(page));
  useEffect(() => {
    document.title = documentTitle(page);
  }, [page]);
}
