import { lazy, Suspense, useSyncExternalStore } from 'react';

import { toastsRequested } from '@/lib/toast';

const ToastContainer = lazy(() => import('./toast-container'));

/** Mounts the toast container once the first toast is asked for; nothing before that. */
export function Toasts() {
  const requested = useSyncExternalStore(
    toastsRequested.subscribe,
    toastsRequested.get,
    toastsRequested.getServerSnapshot,
  );
  return requested ? (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  ) : null;
}
