import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
// The unstyled entry never injects a <style> tag, which the CSP (style-src 'self') would
// block; the same styles come from the package's stylesheet, bundled as a file.
import { ToastContainer } from 'react-toastify/unstyled';
import 'react-toastify/ReactToastify.css';

import { AuthProvider } from '@/lib/auth/auth-provider';
import { createQueryClient } from '@/lib/query-client';

// Spec §9: Alt+T focuses the toasts.
const isToastHotKey = (event: KeyboardEvent) => event.altKey && event.code === 'KeyT';

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>{children}</AuthProvider>
      <ToastContainer
        position="top-right"
        autoClose={5000}
        pauseOnHover
        pauseOnFocusLoss
        theme="light"
        hotKeys={isToastHotKey}
      />
    </QueryClientProvider>
  );
}
