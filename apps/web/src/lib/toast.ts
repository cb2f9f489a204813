import type { ToastContent, ToastOptions } from 'react-toastify/unstyled';

/**
 * Toasts, with react-toastify and its stylesheet loaded by the first toast instead of by every
 * page: most page views show none. The first call asks the app to mount the container
 * (`useToastsRequested`, app/toasts.tsx); react-toastify queues a toast sent before its
 * container is mounted and shows it then.
 */
type Kind = 'info' | 'success' | 'warning' | 'error';

let requested = false;
const listeners = new Set<() => void>();

/** A toast's words, or a small element with them (an Undo button beside the words). */
type Content = string | ToastContent;

function show(kind: Kind, message: Content, options?: ToastOptions) {
  if (!requested) {
    requested = true;
    for (const listener of listeners) listener();
  }
  void import('react-toastify/unstyled').then(({ toast: library }) => library[kind](message, options));
}

export const toast = {
  info: (message: Content, options?: ToastOptions) => show('info', message, options),
  success: (message: Content, options?: ToastOptions) => show('success', message, options),
  warning: (message: Content, options?: ToastOptions) => show('warning', message, options),
  error: (message: Content, options?: ToastOptions) => show('error', message, options),
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
