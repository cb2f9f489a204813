import type { AuthConfigResponse } from '@gem/contracts/identity';
import { Log, UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';

import { AccountStore } from './account-store';
import { isSigninCallback } from './signin-callback';

/** What the app knows of the signed-in person (spec §3 "Sign-in account"). */
export type Account = {
  /** The user's e-mail (spec: the username is used as the e-mail). */
  username: string;
  name: string | undefined;
  /** Issuer-scoped subject: the account's id at the identity provider. */
  homeAccountId: string;
};

// Spec §9: renew 300 s before expiry; log at warning level with no personal data.
const RENEW_BEFORE_EXPIRY_SECONDS = 300;
Log.setLevel(Log.WARN);
Log.setLogger(console);

/**
 * The popup failed in a way a full-page redirect can fix (spec §4): it was blocked, closed,
 * or cut off by a cross-origin-opener-policy (Entra ID sends one). Other errors, such as the
 * provider refusing the sign-in, are real failures.
 */
export function shouldFallBackToRedirect(error: unknown): boolean {
  const message = error instanceof Error ? error.message.toLowerCase() : String(error).toLowerCase();
  return (
    message.includes('cross-origin-opener-policy') ||
    message.includes('popup closed') ||
    message.includes('window closed') ||
    message.includes('error opening popup') ||
    message.includes('popup blocked') ||
    message.includes('disposed window')
  );
}

export { isSigninCallback };

/**
 * The app's one door to the identity provider, over oidc-client-ts: authorization code with
 * PKCE, popup sign-in with redirect fallback, refresh-token renewal, redirect sign-out.
 */
export class AuthClient {
  private readonly manager: UserManager;
  private refreshing: Promise<User | null> | undefined;
  private started: Promise<Account | null> | undefined;

  constructor(config: AuthConfigResponse, origin = window.location.origin) {
    const resource: Record<string, string> = config.resource ? { resource: config.resource } : {};
    this.manager = new UserManager({
      authority: config.authority,
      client_id: config.clientId,
      redirect_uri: `${origin}/`,
      popup_redirect_uri: `${origin}/`,
      post_logout_redirect_uri: `${origin}/`,
      response_type: 'code',
      scope: config.scope,
      extraQueryParams: resource,
      extraTokenParams: resource,
      userStore: new AccountStore(window.localStorage),
      stateStore: new WebStorageStateStore({ store: window.localStorage, prefix: 'gem.oidc.' }),
      automaticSilentRenew: true,
      accessTokenExpiringNotificationTimeInSeconds: RENEW_BEFORE_EXPIRY_SECONDS,
      // Renewal uses the refresh token; no hidden iframe, no third-party cookies.
      monitorSession: false,
      loadUserInfo: false,
      popupWindowFeatures: { width: 480, height: 640 },
    });
  }

  /** Subscribes to sign-in, renewal and sign-out. Returns the unsubscribe function. */
  onChange(listener: (account: Account | null) => void): () => void {
    const loaded = (user: User) => listener(toAccount(user));
    const unloaded = () => listener(null);
    this.manager.events.addUserLoaded(loaded);
    this.manager.events.addUserUnloaded(unloaded);
    this.manager.events.addSilentRenewError(unloaded);
    return () => {
      this.manager.events.removeUserLoaded(loaded);
      this.manager.events.removeUserUnloaded(unloaded);
      this.manager.events.removeSilentRenewError(unloaded);
    };
  }

  /**
   * On start: finishes a redirect sign-in when the page is the provider's answer, then takes
   * the cached account. A cached account has no access token (memory only), so one is fetched
   * with its refresh token. Returns null when nobody is signed in.
   */
  start(url = new URL(window.location.href)): Promise<Account | null> {
    // Once per page: a sign-in answer can be redeemed only once.
    this.started ??= this.restore(url);
    return this.started;
  }

  private async restore(url: URL): Promise<Account | null> {
    if (isSigninCallback(url)) {
      try {
        await this.manager.signinCallback(url.href);
      } catch (error) {
        console.warn('Error handling redirect:', error instanceof Error ? error.message : error);
      } finally {
        url.searchParams.delete('code');
        url.searchParams.delete('state');
        url.searchParams.delete('session_state');
        url.searchParams.delete('iss');
        window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
      }
    }
    const user = await this.manager.getUser();
    if (!user) return null;
    if (user.access_token && !user.expired) return toAccount(user);
    const renewed = await this.refresh();
    return renewed ? toAccount(renewed) : null;
  }

  /** In the sign-in popup: hands the provider's answer to the window that opened it. */
  async finishPopup(url = new URL(window.location.href)): Promise<void> {
    await this.manager.signinCallback(url.href);
  }

  /** Popup sign-in; a blocked, closed or COOP-severed popup falls back to a redirect. */
  async signIn(): Promise<Account | null> {
    try {
      return toAccount(await this.manager.signinPopup());
    } catch (error) {
      if (!shouldFallBackToRedirect(error)) throw error;
      await this.manager.signinRedirect();
      return null; // the page is navigating away
    }
  }

  /** A valid access token, renewed with the refresh token when expired or when forced. */
  async getAccessToken({ forceRefresh = false } = {}): Promise<string | null> {
    const user = await this.manager.getUser();
    if (!user) return null;
    if (!forceRefresh && user.access_token && !user.expired) return user.access_token;
    return (await this.refresh())?.access_token ?? null;
  }

  /** Forgets the account and tokens here, then ends the provider session by redirect. */
  async signOut(): Promise<void> {
    const user = await this.manager.getUser();
    await this.manager.removeUser();
    await this.manager.clearStaleState();
    await this.manager.signoutRedirect(user?.id_token ? { id_token_hint: user.id_token } : {});
  }

  /** Forgets the account here only (the refresh token no longer works). */
  async forget(): Promise<void> {
    await this.manager.removeUser();
  }

  // One renewal at a time, shared by every caller that needs a token meanwhile.
  private refresh(): Promise<User | null> {
    this.refreshing ??= this.manager
      .signinSilent()
      .catch(async () => {
        await this.manager.removeUser();
        return null;
      })
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }
}

function toAccount(user: User): Account {
  const { profile } = user;
  const email = profile.email ?? profile.preferred_username ?? '';
  return {
    username: email,
    name: profile.name,
    homeAccountId: `${profile.iss}|${profile.sub}`,
  };
}
