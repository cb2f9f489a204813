import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';

import { useIsAdmin } from '@/features/identity/api/check-app-access';
import { useAuth } from '@/lib/auth/auth-provider';

import { MainLayout } from './main-layout';
import { PageLoading } from './page-loading';

/** The router's root element: every page renders inside the main layout; tool pages load on demand. */
export function RootLayout() {
  const { isAuthenticated } = useAuth();
  const isAdmin = useIsAdmin();
  return (
    <MainLayout isAuthenticated={isAuthenticated} isAdmin={isAdmin}>
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
    </MainLayout>
  );
}
