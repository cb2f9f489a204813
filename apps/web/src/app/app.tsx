import { StrictMode } from 'react';
import type { DataRouter } from 'react-router';

import { AppProvider } from './provider';
import { AppRouter } from './router';

/**
 * The whole app. The browser renders it with its own router; prerendering (app/prerender.tsx)
 * renders the same tree with a memory router, so that the browser can hydrate the markup.
 */
export function App({ router }: { router?: DataRouter }) {
  return (
    <StrictMode>
      <AppProvider>
        <AppRouter router={router} />
      </AppProvider>
    </StrictMode>
  );
}
