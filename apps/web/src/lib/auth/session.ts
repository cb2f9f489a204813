import { toast } from '@/lib/toast';

import type { AuthClient } from './auth-client';

/**
 * The current sign-in, for code outside React (the API client). The auth provider sets it
 * once the identity provider's settings are known.
 */
let client: AuthClient | undefined;

export const authSession = {
  use(next: AuthClient | undefined) {
    client = next;
  },

  getAccessToken(options?: { forceRefresh?: boolean }): Promise<string | null> {
    return client ? client.getAccessToken(options) : Promise.resolve(null);
  },

  /** No token can be had any more (spec §7): say so and sign out. */
  async lost(): Promise<void> {
    toast.error('Authentication error, please log in again.', { toastId: 'auth-lost' });
    await client?.signOut();
  },
};
