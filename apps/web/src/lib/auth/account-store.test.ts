import { User } from 'oidc-client-ts';
import { beforeEach, describe, expect, it } from 'vitest';

import { AccountStore } from './account-store';

const user = new User({
  access_token: 'secret-access-token',
  refresh_token: 'refresh-1',
  id_token: 'id-token',
  token_type: 'Bearer',
  profile: { sub: 'u1', iss: 'https://idp.example', aud: 'gem', exp: 0, iat: 0, email: 'anna@example.com' },
  expires_at: 4_000_000_000,
});

describe('AccountStore', () => {
  beforeEach(() => localStorage.clear());

  it('keeps the access token in memory and out of local storage', async () => {
    const store = new AccountStore(localStorage);
    await store.set('user:gem', user.toStorageString());

    const persisted = localStorage.getItem('gem.account.user:gem') ?? '';
    expect(persisted).not.toContain('secret-access-token');
    expect(JSON.parse(persisted)).toMatchObject({
      refresh_token: 'refresh-1',
      profile: { email: 'anna@example.com' },
    });
    expect(await store.get('user:gem')).toContain('secret-access-token');
  });

  it('after a reload knows the account but has no access token', async () => {
    await new AccountStore(localStorage).set('user:gem', user.toStorageString());
    const afterReload = new AccountStore(localStorage);
    const restored = User.fromStorageString((await afterReload.get('user:gem')) ?? '');
    expect(restored.profile.email).toBe('anna@example.com');
    expect(restored.refresh_token).toBe('refresh-1');
    expect(restored.access_token).toBe('');
    expect(await afterReload.getAllKeys()).toEqual(['user:gem']);
  });

  it('forgets everything on remove', async () => {
    const store = new AccountStore(localStorage);
    await store.set('user:gem', user.toStorageString());
    await store.remove('user:gem');
    expect(await store.get('user:gem')).toBeNull();
    expect(localStorage.length).toBe(0);
  });
});
