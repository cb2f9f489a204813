import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/test-database';
import type { Database } from '../../db/client';
import { createLocalAccounts } from '../../integrations/oidc/embedded/local-accounts';
import { retireDemoAccounts, seedDemoAccounts } from './demo-accounts';
import { createAccessAdmin } from './identity.service';
import { EMBEDDED_ISSUER_KEY } from '../../integrations/oidc/token-verifier';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('demo accounts', () => {
  it('are the marketer and the colleague, both permitted, and the outsider, who is not', async () => {
    const { db, close } = await createTestDatabase();
    try {
      const accounts = createLocalAccounts(db);
      const accessAdmin = createAccessAdmin({ db });
      await seedDemoAccounts({ accounts, accessAdmin });
      const colleague = await accounts.authenticate('colleague@example.com', 'colleague');
      expect(colleague).toMatchObject({ email: 'colleague@example.com', displayName: 'Demo Colleague' });
      expect(await accounts.authenticate('outsider@example.com', 'outsider')).toBeDefined();
      expect((await accessAdmin.list()).map((a) => [a.email, a.name])).toEqual(
        expect.arrayContaining([
          ['marketer@example.com', 'Demo Marketer'],
          ['colleague@example.com', 'Demo Colleague'],
        ]),
      );
      // A revoked grant stays revoked at the next start: an existing account is left alone.
      await accessAdmin.revoke({ issuer: EMBEDDED_ISSUER_KEY, email: 'colleague@example.com' });
      await seedDemoAccounts({ accounts, accessAdmin });
      expect((await accessAdmin.list()).map((a) => a.email)).toEqual(['marketer@example.com']);
    } finally {
      await close();
    }
  });

  it('are removed, with their access, once demo accounts are off; a changed password keeps one', async () => {
    const accounts = createLocalAccounts(database.db);
    const accessAdmin = createAccessAdmin({ db: database.db });
    await seedDemoAccounts({ accounts, accessAdmin });
    expect((await accessAdmin.list()).map((a) => a.email).sort()).toEqual([
      'colleague@example.com',
      'marketer@example.com',
    ]);
    // The operator gave the outsider account a password of their own: it is no demo account any more.
    await accounts.remove('outsider@example.com');
    await accounts.add({ email: 'outsider@example.com', password: 'a-password-of-our-own' });

    expect(await retireDemoAccounts({ accounts, accessAdmin })).toEqual([
      'marketer@example.com',
      'colleague@example.com',
      'admin@example.com',
    ]);
    expect(await accounts.authenticate('marketer@example.com', 'marketer')).toBeUndefined();
    expect(await accounts.authenticate('admin@example.com', 'admin')).toBeUndefined();
    expect(await accounts.authenticate('colleague@example.com', 'colleague')).toBeUndefined();
    expect(await accessAdmin.list()).toEqual([]);
    expect(await accounts.findByEmail('outsider@example.com')).toBeDefined();
    // Nothing left to retire the second time.
    expect(await retireDemoAccounts({ accounts, accessAdmin })).toEqual([]);
  });
});
