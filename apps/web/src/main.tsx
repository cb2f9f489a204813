// First, so the tokens and element defaults come before every component's styles.
import './styles/global.css';

import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';

import { App } from '@/app/app';
import { preloadRoute } from '@/app/router';
import { markHydrating } from '@/lib/hydration';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The server sends HTML rendered at build time (scripts/prerender.mjs): a public page as it
// will look, or, for every other path, the app's frame while it starts. `data-prerendered`
// names the path the markup was rendered for.
const { pathname } = window.location;
const page = preloadRoute(pathname);

// Opening a storage area waits on the browser process (5 to 40 ms here). The router reads
// session storage (scroll positions) and the sign-in check local storage as the app first
// renders: opened now, each in a task of its own while the page's code loads, they do not
// lengthen that render's tasks.
for (const storage of ['sessionStorage', 'localStorage'] as const) {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    try {
      void window[storage].length;
    } catch {
      // No storage (blocked by the browser's settings): the router and the sign-in check cope.
    }
  };
  channel.port2.postMessage(null);
}

if (container.dataset.prerendered === pathname) {
  // This very page: React takes over the markup as it is, once the page's code is here (the
  // HTML preloads it, so that costs no extra round trip).
  // In a transition, so the work is cut into short tasks and the page stays responsive.
  markHydrating();
  void page.catch(() => undefined).then(() => startTransition(() => void hydrateRoot(container, <App />)));
} else {
  // The frame or the 404 page, rendered for another path: React replaces it in one commit,
  // with no blank frame in between. The page's code loads alongside the sign-in check.
  const root = createRoot(container);
  startTransition(() => root.render(<App />));
}
