import { authConfigResponseSchema, identityPaths, type AuthConfigResponse } from '@gem/contracts/identity';
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

import { api } from '@/lib/api-client';

import { AuthClient, isSigninCallback, type Account } from './auth-client';
import { authSession } from './session';

/** Spec §3 "Auth state": account, isAuthenticated, isLoading, and the operations on them. */
export type AuthState =
  | { status: 'loading' }
  /** The identity provider's settings could not be loaded. */
  | { status: 'unavailable' }
  /** This window is the sign-in popup, handing its answer back to the app. */
  | { status: 'popup' }
  | { status: 'signedOut' }
  | { status: 'signedIn'; account: Account };

export type Auth = {
  state: AuthState;
  isAuthenticated: boolean;
  isLoading: boolean;
  account: Account | null;
  config: AuthConfigResponse | undefined;
  signIn(): Promise<void>;
  signOut(): Promise<void>;
};

/** Exported for tests, which render pages in a given sign-in state. */
export const AuthContext = createContext<Auth | null>(null);

export const authConfigQueryOptions = {
  queryKey: ['identity', 'auth-config'],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api.get(identityPaths.authConfig, { schema: authConfigResponseSchema, signal }),
  staleTime: Infinity,
} as const;

export function AuthProvider({ children }: { children: ReactNode }) {
  const configQuery = useQuery(authConfigQueryOptions);
  const config = configQuery.data;
  const client = useMemo(() => (config ? new AuthClient(config) : undefined), [config]);
  // In the sign-in popup the app only hands the provider's answer back to the opener.
  const [isPopup] = useState(
    () =>
      Boolean(window.opener) && window.opener !== window && isSigninCallback(new URL(window.location.href)),
  );
  const [state, setState] = useState<AuthState>(isPopup ? { status: 'popup' } : { status: 'loading' });

  useEffect(() => {
    if (!client) return;
    authSession.use(client);
    const url = new URL(window.location.href);
    if (isPopup) {
      void client.finishPopup(url).catch((error: unknown) => {
        console.warn('Error handling redirect:', error instanceof Error ? error.message : error);
      });
      return;
    }
    let active = true;
    const unsubscribe = client.onChange((account) => {
      if (active) setState(account ? { status: 'signedIn', account } : { status: 'signedOut' });
    });
    client
      .start(url)
      .then((account) => {
        if (active) setState(account ? { status: 'signedIn', account } : { status: 'signedOut' });
      })
      .catch(() => {
        if (active) setState({ status: 'signedOut' });
      });
    return () => {
      active = false;
      unsubscribe();
    };
  }, [client, isPopup]);

  const configFailed = configQuery.isError;
  const value = useMemo<Auth>(() => {
    const current: AuthState = configFailed ? { status: 'unavailable' } : state;
    return {
      state: current,
      isAuthenticated: current.status === 'signedIn',
      isLoading: current.status === 'loading' || current.status === 'popup',
      account: current.status === 'signedIn' ? current.account : null,
      config,
      async signIn() {
        if (!client) return;
        const account = await client.signIn();
        if (account) setState({ status: 'signedIn', account });
      },
      async signOut() {
        setState({ status: 'loading' });
        await client?.signOut();
      },
    };
  }, [configFailed, state, client, config]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth needs an <AuthProvider> above it');
  return auth;
}
