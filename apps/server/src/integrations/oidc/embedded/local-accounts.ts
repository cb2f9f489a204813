import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { isStorableText } from '@gem/contracts/text-rules';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { localAccounts } from '../../../db/schema/index';

// scrypt at N=2^16, r=8, p=2: one of OWASP's equivalent minimum settings (64 MiB, within
// Node's memory cap). The parameters are stored with each hash; a hash made with weaker ones
// is replaced at the next successful sign-in.
type ScryptParams = { N: number; r: number; p: number; keyLength: number };
const SCRYPT: ScryptParams = { N: 2 ** 16, r: 8, p: 2, keyLength: 32 };
const MIN_PASSWORD_LENGTH = 8;

function scryptAsync(password: string, salt: Buffer, keyLength: number, options: ScryptOptions) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(
      password.normalize('NFKC'),
      salt,
      keyLength,
      { ...options, maxmem: 128 * 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

export async function hashPassword(password: string, params: ScryptParams = SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p, keyLength } = params;
  const key = await scryptAsync(password, salt, keyLength, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
}

/** Whether a stored hash was made with weaker parameters than GEM uses now. */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) * Number(r) * Number(p) < SCRYPT.N * SCRYPT.r * SCRYPT.p;
}

// Checked when no account has the e-mail, so a miss costs what a wrong password costs.
const dummyHash = hashPassword(randomBytes(16).toString('hex'));

export type LocalAccount = { id: string; email: string; displayName: string | null; createdAt: Date };

export class LocalAccountError extends Error {
  override name = 'LocalAccountError';
}

/** An e-mail as accounts, the throttle and device cookies compare it. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();
// Something@something.something, written so that no two quantifiers can share characters
// (the domain's first dot is the one after its first character): linear on any input.
const emailPattern = /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/;
/** The longest e-mail the sign-in form takes: a 64-character local part, @, a 255-character domain. */
export const MAX_EMAIL_LENGTH = 320;
/** Whether an account could have this e-mail: one the database can store, of an address's length. */
const couldBeEmail = (email: string) => email.length <= MAX_EMAIL_LENGTH && isStorableText(email);

/** The embedded provider's sign-in accounts (e-mail + password), kept in the database. */
export function createLocalAccounts(db: Db) {
  const columns = {
    id: localAccounts.id,
    email: localAccounts.email,
    displayName: localAccounts.displayName,
    createdAt: localAccounts.createdAt,
  };
  const byEmail = (email: string) => eq(sql`lower(${localAccounts.email})`, normalizeEmail(email));

  return {
    async add(input: {
      email: string;
      password: string;
      displayName?: string | null;
    }): Promise<LocalAccount> {
      const email = normalizeEmail(input.email);
      if (!couldBeEmail(email) || !emailPattern.test(email)) {
        throw new LocalAccountError(`${input.email} is not an e-mail address.`);
      }
      if (input.password.length < MIN_PASSWORD_LENGTH) {
        throw new LocalAccountError(`The password must have at least ${MIN_PASSWORD_LENGTH} characters.`);
      }
      const passwordHash = await hashPassword(input.password);
      const [row] = await db
        .insert(localAccounts)
        .values({ email, displayName: input.displayName ?? null, passwordHash })
        .onConflictDoNothing()
        .returning(columns);
      if (!row) throw new LocalAccountError(`An account for ${email} already exists.`);
      return row;
    },

    /** Creates the account unless one exists; never changes an existing one. */
    async ensure(input: { email: string; password: string; displayName: string }) {
      const existing = await this.findByEmail(input.email);
      if (existing) return { account: existing, created: false };
      const passwordHash = await hashPassword(input.password);
      const [row] = await db
        .insert(localAccounts)
        .values({ email: normalizeEmail(input.email), displayName: input.displayName, passwordHash })
        .onConflictDoNothing()
        .returning(columns);
      // Another instance seeding at the same moment won the insert.
      if (!row) return { account: (await this.findByEmail(input.email))!, created: false };
      return { account: row, created: true };
    },

    async remove(email: string): Promise<LocalAccount | undefined> {
      if (!couldBeEmail(email)) return undefined;
      const [row] = await db.delete(localAccounts).where(byEmail(email)).returning(columns);
      return row;
    },

    async list(): Promise<LocalAccount[]> {
      return db.select(columns).from(localAccounts).orderBy(localAccounts.email);
    },

    async findById(id: string): Promise<LocalAccount | undefined> {
      // Account ids are UUIDs; anything else (a forged or stale session) is simply unknown.
      if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
      const [row] = await db.select(columns).from(localAccounts).where(eq(localAccounts.id, id));
      return row;
    },

    async findByEmail(email: string): Promise<LocalAccount | undefined> {
      if (!couldBeEmail(email)) return undefined;
      const [row] = await db.select(columns).from(localAccounts).where(byEmail(email));
      return row;
    },

    /**
     * The account when the password matches; undefined otherwise, in about the same time. An
     * e-mail no account can have (a NUL character, half an emoji, longer than an address) is
     * a miss like any unknown one, not looked up (PostgreSQL refuses a NUL in a query).
     */
    async authenticate(email: string, password: string): Promise<LocalAccount | undefined> {
      const [row] = couldBeEmail(email)
        ? await db
            .select({ ...columns, passwordHash: localAccounts.passwordHash })
            .from(localAccounts)
            .where(byEmail(email))
        : [];
      const ok = await verifyPassword(password, row?.passwordHash ?? (await dummyHash));
      if (!row || !ok) return undefined;
      if (needsRehash(row.passwordHash)) {
        await db
          .update(localAccounts)
          .set({ passwordHash: await hashPassword(password) })
          .where(eq(localAccounts.id, row.id));
      }
      const { passwordHash: _, ...account } = row;
      return account;
    },
  };
}

export type LocalAccounts = ReturnType<typeof createLocalAccounts>;
