import { brandVoicePaths, type BrandProfile, type BrandProfileResponse } from '@gem/contracts/brand-voice';
import { expect } from 'vitest';
import type { useBrowser } from './browser';
import { admin, signInWithPopup } from './sign-in';

/** A profile with nothing in it but a voice, for a database that has none yet. */
const emptyProfile: BrandProfile = {
  voice: {
    attributes: [
      { name: 'ekspercki', explanation: '' },
      { name: 'przystępny', explanation: '' },
      { name: 'konkretny', explanation: '' },
    ],
    address: 'panstwo',
  },
  audienceNotes: '',
  examples: [],
  preferred: [],
  banned: [],
  names: [],
  disclaimers: [],
  facts: { serviceLines: [], offices: [], claims: [] },
  acronyms: [],
};

/**
 * Issue 31: the administrator bans `banned` through the admin API (PUT /api/admin/brand-voice,
 * based on the version in force), as the admin page would; gives back a function that saves
 * the profile in force before back (files share one app and its database).
 */
export async function banTerm(
  browser: ReturnType<typeof useBrowser>,
  banned: BrandProfile['banned'][number],
): Promise<() => Promise<void>> {
  const page = await browser.open('desktop');
  await signInWithPopup(page, admin);
  // The bearer token the app sends with its own calls, read off one of them.
  const request = page.waitForRequest((r) => r.url().includes('/api/') && !!r.headers()['authorization']);
  await page.goto('/tools');
  const token = (await request).headers()['authorization']!;
  const call = async (method: 'GET' | 'PUT', body?: unknown): Promise<BrandProfileResponse> => {
    const response = await page.request.fetch(brandVoicePaths.adminProfile, {
      method,
      headers: { authorization: token, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { data: JSON.stringify(body) }),
    });
    expect(response.status(), await response.text()).toBe(200);
    return (await response.json()) as BrandProfileResponse;
  };
  const { current } = await call('GET');
  const before = current?.profile ?? emptyProfile;
  const saved = await call('PUT', {
    profile: { ...before, banned: [...before.banned.filter((b) => b.term !== banned.term), banned] },
    note: `e2e: ban „${banned.term}”`,
    basedOn: current?.version ?? null,
  });
  return async () => {
    if (!current) return; // nothing to go back to: a profile can be replaced, not removed
    await call('PUT', {
      profile: current.profile,
      note: 'e2e: back as it was',
      basedOn: saved.current!.version,
    });
  };
}
