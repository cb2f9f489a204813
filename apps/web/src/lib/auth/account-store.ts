import type { StateStore } from 'oidc-client-ts';

const accountPrefix = 'gem.account.';

/**
 * True when this browser keeps a signed-in account (oidc-client-ts names its record
 * `user:<authority>:<client id>`). Read without loading oidc-client-ts, so a visitor who never
 * signed in does not download it before pressing Sign in.
 */
export function hasStoredAccount(storage: Storage = window.localStorage): boolean {
  for (let i = 0; i < storage.length; i++) {
    if (storage.key(i)?.startsWith(`${accountPrefix}user:`)) return true;
  }
  return false;
}

/**
 * Where oidc-client-ts keeps the signed-in user. Spec §3/§7: account data is cached in
 * local storage, the access token is kept in memory only. So the full user (tokens
 * included) lives in memory, and local storage gets the same record without its access
 * token: after a reload the account and its refresh token are there, and a fresh access
 * token is fetched with the refresh token instead of a new sign-in.
 */
export class AccountStore implements StateStore {
  private readonly memory = new Map<string, string>();

  constructor(
    private readonly storage: Storage,
    private readonly prefix = accountPrefix,
  ) {}

  async set(key: string, value: string): Promise<void> {
    this.memory.set(key, value);
    this.storage.setItem(this.prefix + key, withoutAccessToken(value));
  }

  async get(key: string): Promise<string | null> {
    return this.memory.get(key) ?? this.storage.getItem(this.prefix + key);
  }

  async remove(key: string): Promise<string | null> {
    const value = await this.get(key);
    this.memory.delete(key);
    this.storage.removeItem(this.prefix + key);
    return value;
  }

  async getAllKeys(): Promise<string[]> {
    const keys = new Set(this.memory.keys());
    for (let i = 0; i < this.storage.length; i++) {
      const key = this.storage.key(i);
      if (key?.startsWith(this.prefix)) keys.add(key.slice(this.prefix.length));
    }
    return [...keys];
  }
}

function withoutAccessToken(value: string): string {
  try {
    const record: unknown = JSON.parse(value);
    if (record && typeof record === 'object' && 'access_token' in record) {
      return JSON.stringify({ ...record, access_token: '' });
    }
  } catch {
    // Not a user record: store as is.
  }
  return value;
}
