import { brandProfileResponseSchema, brandVoicePaths } from '@gem/contracts/brand-voice';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { brandProfileSample, finalOf, parseEvents, systemOf, useAiHarness } from '../../../test/ai-harness';
import { accessClaims } from '../../../test/test-app';
import type { App } from '../../app';
import { generations } from '../../db/schema/index';
import { BRAND_REFRESH_MS } from './brand-voice';

/**
 * Issue 31: "a profile version change seen by a generation on the other instance within 60 s".
 * Two GEM apps on one database, their services' clock moved by the test (ServicesDeps `now`, the
 * brand voice's clock): a version an administrator saves on instance A is used by A's generations
 * at once, and by B's once B's refresh is due (30 s after it last read), never later.
 */

const t = useAiHarness();

let clock = Date.now();
const now = () => clock;

/** The brand version an article generation on `app` sent and recorded. */
async function versionUsedBy(app: App): Promise<number | null> {
  const before = t.ai.requests.length;
  const res = await t.generate('article', 'instances', undefined, app);
  expect(res.statusCode, res.body).toBe(200);
  const { generationId } = finalOf(parseEvents(res.body));
  const sent = /<profil_marki wersja="(\d+)">/.exec(systemOf(t.ai.requests[before]));
  const [row] = await t.database.db
    .select({ brandVersion: generations.brandVersion })
    .from(generations)
    .where(eq(generations.id, generationId));
  const recorded = row?.brandVersion ?? null;
  expect(sent ? Number(sent[1]) : null).toBe(recorded);
  return recorded;
}

/** Saves `profile` as an administrator through `app`'s admin route, on top of `basedOn`. */
async function saveOn(app: App, basedOn: number | null, profile = brandProfileSample()) {
  const res = await app.inject({
    method: 'PUT',
    url: brandVoicePaths.adminProfile,
    headers: { authorization: `Bearer ${await t.issuer.sign(accessClaims('admin'))}` },
    payload: { profile, basedOn },
  });
  expect(res.statusCode, res.body).toBe(200);
  return brandProfileResponseSchema.parse(res.json()).current!.version;
}

describe('the profile in force across instances', () => {
  it('is used by a generation on the other instance within 60 s of a save', async () => {
    const a = await t.app({ now });
    const b = await t.app({ now });
    expect(await saveOn(a, null)).toBe(1);
    expect(await versionUsedBy(a)).toBe(1);
    expect(await versionUsedBy(b)).toBe(1);

    // Saved on A right after B read: B's worst case. A uses it at once.
    expect(await saveOn(a, 1, brandProfileSample({ names: ['Deal Advisory', 'Tax Advisory'] }))).toBe(2);
    const savedAt = clock;
    expect(await versionUsedBy(a)).toBe(2);
    clock = savedAt + 10_000;
    expect(await versionUsedBy(b)).toBe(1);
    clock = savedAt + BRAND_REFRESH_MS - 1;
    expect(await versionUsedBy(b)).toBe(1);
    clock = savedAt + BRAND_REFRESH_MS;
    expect(await versionUsedBy(b)).toBe(2);
    expect(BRAND_REFRESH_MS).toBeLessThanOrEqual(60_000);

    // A later save is seen the same way, within one refresh of B's last read, whenever it is made.
    clock += 5_000;
    expect(await saveOn(a, 2, brandProfileSample({ names: ['Deal Advisory'] }))).toBe(3);
    const thirdAt = clock;
    for (const offset of [10_000, 20_000, 25_000, 30_000, 60_000]) {
      clock = thirdAt + offset;
      // B last read 5 s before this save: it reads the newest version 25 s after it.
      expect(await versionUsedBy(b), `${offset} ms after the save`).toBe(offset >= 25_000 ? 3 : 2);
    }
  }, 60_000);
});
