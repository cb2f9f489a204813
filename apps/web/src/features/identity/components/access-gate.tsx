import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';

import { LoadingOverlay } from '@/components/ui/loading-overlay';
import { ApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth/auth-provider';

import { useCheckAppAccess } from '../api/check-app-access';
import { AccessDenied } from './access-denied';
import { AuthUnavailable } from './auth-unavailable';

export const TOKEN_EXPIRED_MESSAGE = 'Redirecting to login, token expired (Status: 401 - Unauthorized)';

/**
 * The access gate (spec §4) around every page but the public ones: signed out → /login;
 * signed in → ask the server whether this user may use GEM, and show Access Denied if not.
 */
export function AccessGate() {
  const auth = useAuth();
  const location = useLocation();

  if (auth.state.status === 'unavailable') return <AuthUnavailable />;
  if (auth.isLoading) return <LoadingOverlay />;
  if (!auth.account) {
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  }
  return <PermissionCheck accountId={auth.account.homeAccountId} />;
}

function PermissionCheck({ accountId }: { accountId: string }) {
  const auth = useAuth();
  const access = useCheckAppAccess(accountId);
  const expired = access.error instanceof ApiError && access.error.status === 401;

  useEffect(() => {
    if (!expired) return;
    console.warn(TOKEN_EXPIRED_MESSAGE);
    void auth.signOut();
  }, [expired, auth]);

  if (access.isPending || expired) {
    return <LoadingOverlay message={expired ? TOKEN_EXPIRED_MESSAGE : undefined} />;
  }
  // A missing or false hasAccess, or any failure, means not permitted (spec §5).
  if (access.data?.hasAccess !== true) return <AccessDenied contacts={auth.config?.accessContacts ?? []} />;
  return <Outlet />;
}
