import type { BrandProfile } from '@gem/contracts/brand-voice';
import { describe, expect, it } from 'vitest';

import { compareProfiles } from './compare-versions';

const profile = (over: Partial<BrandProfile> = {}): BrandProfile => ({
  voice: {
    attributes: [
      { name: 'ekspercki', explanation: 'A' },
      { name: 'konkretny', explanation: 'B' },
      { name: 'spokojny', explanation: 'C' },
    ],
    address: 'panstwo',
  },
  audienceNotes: 'Zarządy.',
  examples: [],
  preferred: [{ term: 'klient', replaces: ['petent'], reason: '' }],
  banned: [{ term: 'tani', reason: 'Brzmi źle.', replacement: 'przystępny' }],
  names: ['Audyt'],
  disclaimers: [],
  facts: { serviceLines: ['Audyt'], offices: [], claims: [] },
  acronyms: [],
  ...over,
});

describe('compareProfiles', () => {
  it('finds nothing between equal profiles, or the same lists reordered', () => {
    expect(compareProfiles(profile(), profile())).toEqual([]);
    const reordered = profile();
    reordered.voice.attributes.reverse();
    expect(compareProfiles(profile(), reordered)).toEqual([]);
  });

  it('says per part what was added, removed and changed', () => {
    const after = profile({
      banned: [
        { term: 'tani', reason: 'Brzmi jak niska jakość.', replacement: 'przystępny' },
        { term: 'kompleksowy', reason: 'Ogólnik.', replacement: '' },
      ],
      names: ['Deal Advisory'],
      voice: { ...profile().voice, address: 'ty' },
    });
    expect(compareProfiles(profile(), after)).toEqual([
      {
        part: 'Form of address',
        added: [],
        removed: [],
        changed: [{ what: 'Form of address', before: 'Państwo', after: 'Ty' }],
      },
      {
        part: 'Banned terms',
        added: ['kompleksowy'],
        removed: [],
        changed: [
          {
            what: 'tani',
            before: 'Brzmi źle. (use “przystępny”)',
            after: 'Brzmi jak niska jakość. (use “przystępny”)',
          },
        ],
      },
      { part: 'Names', added: ['Deal Advisory'], removed: ['Audyt'], changed: [] },
    ]);
  });
});
