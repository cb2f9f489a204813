import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { brandProfileSample, finalOf, parseEvents, systemOf, useAiHarness } from '../../../test/ai-harness';
import type { App } from '../../app';
import { generations } from '../../db/schema/index';
import { BRAND_REFRESH_MS, createBrandVoice } from './brand-voice';
import { createInflection } from './inflection';

/**
 * Issue 31: "a profile version change seen by a generation on the other instance within 60 s".
 * Two GEM apps on one database, their services' clock moved by the test (ServicesDeps `now`, the
 * brand voice's clock): a version saved while instance B holds the one before is used by B's
 * generations once B's refresh is due (30 s after it last read), never later.
 */

const t = useAiHarness();
const inflection = createInflection();
afterAll(() => inflection.close());

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

describe('the profile in force across instances', () => {
  it('is used by a generation on the other instance within 60 s of a save', async () => {
    // An admin's instance saves (the same service the admin area saves through), on the same database.
    const admin = createBrandVoice({ db: t.database.db, inflection, now });
    const a = await t.app({ now });
    const b = await t.app({ now });
    await admin.save({ profile: brandProfileSample(), basedOn: null, userId: null, note: 'v1' });
    expect(await versionUsedBy(a)).toBe(1);
    expect(await versionUsedBy(b)).toBe(1);

    // Saved right after B read: B's worst case.
    await admin.save({
      profile: brandProfileSample({ names: ['Deal Advisory', 'Tax Advisory'] }),
      basedOn: 1,
      userId: null,
      note: 'v2',
    });
    const savedAt = clock;
    clock = savedAt + 10_000;
    expect(await versionUsedBy(b)).toBe(1);
    clock = savedAt + BRAND_REFRESH_MS - 1;
    expect(await versionUsedBy(b)).toBe(1);
    clock = savedAt + BRAND_REFRESH_MS;
    expect(await versionUsedBy(b)).toBe(2);
    expect(await versionUsedBy(a)).toBe(2);
    expect(BRAND_REFRESH_MS).toBeLessThanOrEqual(60_000);

    // Later saves are seen the same way: within one refresh, whatever the time of the save.
    clock += 5_000;
    await admin.save({ profile: brandProfileSample({ names: ['Deal Advisory'] }), basedOn: 2, userId: null });
    const thirdAt = clock;
    for (const offset of [10_000, 20_000, 25_000, 30_000, 60_000]) {
      clock = thirdAt + offset;
      const used = await versionUsedBy(b);
      // B last read at savedAt + 30 s, 5 s before this save: it refreshes 25 s after the save.
      expect(used, `${offset} ms after the save`).toBe(offset >= 25_000 ? 3 : 2);
    }
  }, 60_000);
});
