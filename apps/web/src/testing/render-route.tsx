import type { AuthConfigResponse } from '@gem/contracts/identity';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet, RouterProvider, type RouteObject } from 'react-router';

import { routes } from '@/app/router';
import { AccessGate } from '@/features/identity/components/access-gate';
import { AuthContext, type Auth } from '@/lib/auth/auth-provider';
import { createQueryClient } from '@/lib/query-client';

const config: AuthConfigResponse = {
  authority: 'http://localhost/oidc',
  clientId: 'gem-web',
  scope: 'openid profile email offline_access api',
  resource: 'api://gem',
  audience: 'api://gem',
  embedded: true,
  accessContacts: ['a@example.com', 'b@example.com', 'c@example.com'],
};

/** A sign-in state to render pages in; the gate itself is tested end to end against the server. */
export function authState(signedIn: boolean): Auth {
  const account = signedIn
    ? { username: 'marketer@example.com', name: 'Marketer', homeAccountId: 'iss|sub' }
    : null;
  return {
    state: account ? { status: 'signedIn', account } : { status: 'signedOut' },
    isAuthenticated: signedIn,
    isLoading: false,
    account,
    config,
    prepareSignIn: () => undefined,
    signIn: async () => undefined,
    signOut: async () => undefined,
  };
}

/** The route table with the access gate opened, so page content can be tested on its own. */
function withoutGate(list: RouteObject[]): RouteObject[] {
  return list.map((route) => ({
    ...route,
    ...(route.element && (route.element as { type?: unknown }).type === AccessGate
      ? { element: <Outlet /> }
      : {}),
    ...(route.children ? { children: withoutGate(route.children) } : {}),
  })) as RouteObject[];
}

/** Renders the app (layout, routes) at `path`, in memory instead of the URL bar, signed in by default. */
export function renderRoute(
  path: string,
  { signedIn = true, routeList = routes }: { signedIn?: boolean; routeList?: RouteObject[] } = {},
) {
  const router = createMemoryRouter(withoutGate(routeList), { initialEntries: [path] });
  const user = userEvent.setup();
  const result = render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthContext.Provider value={authState(signedIn)}>
        <RouterProvider router={router} />
      </AuthContext.Provider>
    </QueryClientProvider>,
  );
  return { ...result, router, user };
}
