import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';

import { useAuth } from '@/lib/auth/auth-provider';

import { MainLayout } from './main-layout';
import { PageLoading } from './page-loading';

/** The router's root element: every page renders inside the main layout; tool pages load on demand. */
export function RootLayout() {
  const { isAuthenticated } = useAuth();
  return (
    <MainLayout isAuthenticated={isAuthenticated}>
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
    </MainLayout>
  );
}
