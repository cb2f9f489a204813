import type { ToastOptions } from 'react-toastify/unstyled';

/**
 * Toasts, with react-toastify and its stylesheet loaded by the first toast instead of by every
 * page: most page views show none. The first call asks the app to mount the container
 * (`useToastsRequested`, app/toasts.tsx); react-toastify queues a toast sent before its
 * container is mounted and shows it then.
 */
type Kind = 'info' | 'success' | 'warning' | 'error';

let requested = false;
const listeners = new Set<() => void>();

function show(kind: Kind, message: string, options?: ToastOptions) {
  if (!requested) {
    requested = true;
    for (const listener of listeners) listener();
  }
  void import('react-toastify/unstyled').then(({ toast: library }) => library[kind](message, options));
}

export const toast = {
  info: (message: string, options?: ToastOptions) => show('info', message, options),
  success: (message: string, options?: ToastOptions) => show('success', message, options),
  warning: (message: string, options?: ToastOptions) => show('warning', message, options),
  error: (message: string, options?: ToastOptions) => show('error', message, options),
};

/** For useSyncExternalStore: whether any toast was asked for yet. */
export const toastsRequested = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: (): boolean => requested,
  getServerSnapshot: (): boolean => false,
};
