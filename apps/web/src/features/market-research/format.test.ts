import { describe, expect, it } from 'vitest';

import { formatItemDate, itemSource } from './format';

describe('feed item formatting', () => {
  it("shows the date as 'Mon DD', or 'no date'", () => {
    expect(formatItemDate('2026-03-01T12:00:00Z')).toBe('Mar 01');
    expect(formatItemDate('2026-11-22T12:00:00Z')).toBe('Nov 22');
    expect(formatItemDate(null)).toBe('no date');
    expect(formatItemDate('garbage')).toBe('no date');
  });

  it("shows the link's host without www., or the first author for the pwc area", () => {
    const item = {
      url: 'https://www.vistula-ledger.example/2026/03/story',
      authors: [{ name: 'Anna Nowicka' }, { name: 'Jan Kowalski' }],
    };
    expect(itemSource(item, 'technology')).toBe('vistula-ledger.example');
    expect(itemSource(item, 'pwc')).toBe('Anna Nowicka');
    expect(itemSource({ ...item, authors: [] }, 'pwc')).toBe('vistula-ledger.example');
    expect(itemSource({ url: 'https://news.example.com/x', authors: [] }, 'esg')).toBe('news.example.com');
  });
});
