import { useEffect } from 'react';

const appName = 'GEM';

/** Sets the tab title to "<page> · GEM" while the page is shown. */
export function useDocumentTitle(page: string): void {
  useEffect(() => {
    document.title = `${page} · ${appName}`;
  }, [page]);
}
