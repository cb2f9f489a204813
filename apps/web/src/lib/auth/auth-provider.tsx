import type { AuthConfigResponse } from '@gem/contracts/identity';
import { identityPaths } from '@gem/contracts/identity-paths';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';

import { api } from '@/lib/api-client';
import { isHydrating } from '@/lib/hydration';
import { authConfigResponse } from '@/lib/light-schemas';

import { hasStoredAccount } from './account-store';
import type { Account, AuthClient } from './auth-client';
import { authSession } from './session';
import { isSigninCallback } from './signin-callback';

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
  /** Starts loading the sign-in code (e.g. when the pointer nears the Sign in button). */
  prepareSignIn(): void;
  signIn(): Promise<void>;
  signOut(): Promise<void>;
};

/** Exported for tests, which render pages in a given sign-in state. */
export const AuthContext = createContext<Auth | null>(null);

export const authConfigQueryOptions = {
  queryKey: ['identity', 'auth-config'],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api.get(identityPaths.authConfig, { schema: authConfigResponse, signal }),
  staleTime: Infinity,
} as const;

// oidc-client-ts is loaded when it is first needed: at start only for someone signed in (to
// renew the token) or for the provider's answer to a sign-in; otherwise when they sign in.
let authClientModule: Promise<{ AuthClient: typeof AuthClient }> | undefined;
const loadAuthClientModule = () => (authClientModule ??= import('./auth-client'));

/** What this page load needs from the identity provider before anything else. */
type Start = 'popup' | 'restore' | 'none';

function startKind(): Start {
  // Prerendering at build time has no window: it renders the signed-out, loading state.
  if (typeof window === 'undefined') return 'none';
  const url = new URL(window.location.href);
  if (isSigninCallback(url)) {
    return window.opener && window.opener !== window ? 'popup' : 'restore';
  }
  return hasStoredAccount() ? 'restore' : 'none';
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const configQuery = useQuery(authConfigQueryOptions);
  const config = configQuery.data;
  const [start] = useState(() => {
    const kind = startKind();
    // Fetched beside the auth config rather than after it.
    if (kind !== 'none') void loadAuthClientModule();
    return kind;
  });
  const [client, setClient] = useState<AuthClient | undefined>(undefined);
  // One client per page, whether the start or a sign-in asks for it first.
  const clientPromise = useRef<Promise<AuthClient> | undefined>(undefined);
  const ensureClient = useCallback(
    (settings: AuthConfigResponse) =>
      (clientPromise.current ??= loadAuthClientModule().then(({ AuthClient }) => new AuthClient(settings))),
    [],
  );
  // Nobody signed in on this browser: signed out at once, with no client to ask.
  const [state, setState] = useState<AuthState>(
    start === 'popup'
      ? { status: 'popup' }
      : start === 'none'
        ? { status: 'signedOut' }
        : { status: 'loading' },
  );
  // Prerendered HTML shows the loading state; hydrating it must render the same before the rest.
  // The switch afterwards is a transition, which React renders in short slices: the whole app
  // re-renders for it (the context changes), and as a synchronous update (what
  // useSyncExternalStore's switch from server to client snapshot is) it was one long task.
  const [hydrated, setHydrated] = useState(() => typeof window !== 'undefined' && !isHydrating());
  useEffect(() => {
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);

  // The client for this config, loaded now when the start needs it (else at sign-in).
  useEffect(() => {
    if (!config || start === 'none') return;
    let active = true;
    void ensureClient(config).then((loaded) => {
      if (active) setClient(loaded);
    });
    return () => {
      active = false;
    };
  }, [config, start, ensureClient]);

  useEffect(() => {
    if (!client) return;
    authSession.use(client);
    const url = new URL(window.location.href);
    if (start === 'popup') {
      void client.finishPopup(url).catch((error: unknown) => {
        console.warn('Error handling redirect:', error instanceof Error ? error.message : error);
      });
      return;
    }
    let active = true;
    const unsubscribe = client.onChange((account) => {
      if (active) setState(account ? { status: 'signedIn', account } : { status: 'signedOut' });
    });
    if (start === 'restore') {
      client
        .start(url)
        .then((account) => {
          if (active) setState(account ? { status: 'signedIn', account } : { status: 'signedOut' });
        })
        .catch(() => {
          if (active) setState({ status: 'signedOut' });
        });
    }
    return () => {
      active = false;
      unsubscribe();
    };
  }, [client, start]);

  const configFailed = configQuery.isError;
  const value = useMemo<Auth>(() => {
    const current: AuthState = configFailed
      ? { status: 'unavailable' }
      : hydrated
        ? state
        : { status: 'loading' };
    return {
      state: current,
      isAuthenticated: current.status === 'signedIn',
      isLoading: current.status === 'loading' || current.status === 'popup',
      account: current.status === 'signedIn' ? current.account : null,
      config,
      prepareSignIn() {
        void loadAuthClientModule();
      },
      async signIn() {
        let signInWith = client;
        if (!signInWith) {
          signInWith = await ensureClient(await queryClient.ensureQueryData(authConfigQueryOptions));
          authSession.use(signInWith);
          setClient(signInWith);
        }
        const account = await signInWith.signIn();
        if (account) setState({ status: 'signedIn', account });
      },
      async signOut() {
        setState({ status: 'loading' });
        await client?.signOut();
        setState({ status: 'signedOut' });
      },
    };
  }, [configFailed, hydrated, state, client, config, queryClient, ensureClient]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth needs an <AuthProvider> above it');
  return auth;
}
