import { Outlet, ScrollRestoration } from 'react-router';

import { useAuth } from '@/lib/auth/auth-provider';

import { MainLayout } from './main-layout';

/** The router's root element: every page renders inside the main layout. */
export function RootLayout() {
  const { isAuthenticated } = useAuth();
  return (
    <MainLayout isAuthenticated={isAuthenticated}>
      <Outlet />
      <ScrollRestoration />
    </MainLayout>
  );
}
