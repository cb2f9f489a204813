import type { LocalAccounts } from '../../integrations/oidc/embedded/local-accounts';
import { EMBEDDED_ISSUER_KEY } from '../../integrations/oidc/token-verifier';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Log } from '../../lib/logger';
import type { IdentityProvider } from '../../integrations/oidc/identity-provider';
import { createAccessAdmin, type AccessAdmin } from './identity.service';

/**
 * The README's demo accounts: two permitted (the colleague, to share a campaign with as its
 * editor), one that signs in but is not, and the administrator (an admin by e-mail while demo
 * accounts are on: config/auth.ts demoAdminEmail).
 */
export const demoAccounts = [
  { email: 'marketer@example.com', password: 'marketer', displayName: 'Demo Marketer', permitted: true },
  { email: 'colleague@example.com', password: 'colleague', displayName: 'Demo Colleague', permitted: true },
  { email: 'outsider@example.com', password: 'outsider', displayName: 'Demo Outsider', permitted: false },
  { email: 'admin@example.com', password: 'admin', displayName: 'Demo Admin', permitted: false },
] as const;

/**
 * Creates the demo accounts of the embedded provider if they are missing. An existing account
 * is left alone (a changed password or a revoked grant stays as the operator set it).
 */
export async function seedDemoAccounts({
  accounts,
  accessAdmin,
}: {
  accounts: LocalAccounts;
  accessAdmin: AccessAdmin;
}) {
  for (const demo of demoAccounts) {
    // Demo passwords are shorter than the tool allows for real accounts, so ensure() skips that check.
    const { account, created } = await accounts.ensure(demo);
    if (created && demo.permitted) {
      await accessAdmin.grant({
        issuer: EMBEDDED_ISSUER_KEY,
        subject: account.id,
        email: account.email,
        name: account.displayName,
      });
    }
  }
}

/**
 * With demo accounts off (production, or a server other machines can reach), a demo account
 * that still has its published password is removed, with its access: it would let anyone in.
 */
export async function retireDemoAccounts({
  accounts,
  accessAdmin,
}: {
  accounts: LocalAccounts;
  accessAdmin: AccessAdmin;
}): Promise<string[]> {
  const retired: string[] = [];
  for (const demo of demoAccounts) {
    // Most starts have no demo account at all: skip the password check (a full scrypt) then.
    if (!(await accounts.findByEmail(demo.email))) continue;
    if (!(await accounts.authenticate(demo.email, demo.password))) continue;
    await accounts.remove(demo.email);
    await accessAdmin.revoke({ issuer: EMBEDDED_ISSUER_KEY, email: demo.email });
    retired.push(demo.email);
  }
  return retired;
}

/**
 * At start, with the embedded provider: creates the demo accounts when they are on, or
 * removes the ones that still have their published passwords when they are off. With an
 * external issuer there are none.
 */
export async function settleDemoAccounts({
  config,
  identityProvider,
  db,
  log,
}: {
  config: Pick<Config, 'auth'>;
  identityProvider: IdentityProvider;
  db: Db;
  log: Pick<Log, 'warn'>;
}): Promise<void> {
  const { embedded } = identityProvider;
  if (!embedded) return;
  const demo = { accounts: embedded.accounts, accessAdmin: createAccessAdmin({ db }) };
  if (config.auth.demoAccounts) return seedDemoAccounts(demo);
  const retired = await retireDemoAccounts(demo);
  if (retired.length > 0) log.warn({ count: retired.length }, 'demo accounts removed: demo accounts are off');
}
