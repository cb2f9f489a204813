import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate } from 'react-router';

import { LoadingOverlay } from '@/components/ui/loading-overlay';
import { useAuth } from '@/lib/auth/auth-provider';

/** /logout: forgets the account, ends the provider session by redirect, and lands on /login. */
export function SignOut() {
  const auth = useAuth();
  const queryClient = useQueryClient();
  const signedIn = auth.isAuthenticated;

  useEffect(() => {
    if (!signedIn) return;
    queryClient.clear();
    void auth.signOut();
  }, [signedIn, auth, queryClient]);

  if (auth.state.status === 'signedOut' || auth.state.status === 'unavailable') {
    return <Navigate to="/login" replace />;
  }
  return <LoadingOverlay title="Signing out..." message="Please wait while we end your session" />;
}
