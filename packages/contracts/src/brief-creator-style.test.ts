import { describe, expect, it } from 'vitest';

import type { StyleFinding } from './brand-voice';
import { emptyBriefData } from './brief-creator-data';
import { briefStyleText, briefWithFixes } from './brief-creator-style';

const finding = (start: number, end: number, text: string, replacement: string): StyleFinding => ({
  id: `banned:${start}:${end}`,
  rule: 'banned',
  start,
  end,
  text,
  message: 'm',
  reason: 'r',
  fix: { replacement, safe: true },
});

describe('briefStyleText', () => {
  it('writes the written fields in order, each list item apart, and leaves out the empty ones', () => {
    const brief = {
      ...emptyBriefData(),
      campaignName: 'A',
      campaignType: ['Webinar' as const],
      eventDate: '2027-01-01',
      budget: '  ',
      channels: ['X', '', 'Y'],
    };
    expect(briefStyleText(brief)).toEqual({
      text: 'A\n\nX\n\nY',
      parts: [
        { field: 'campaignName', index: null, start: 0, end: 1 },
        { field: 'channels', index: 0, start: 3, end: 4 },
        { field: 'channels', index: 2, start: 6, end: 7 },
      ],
    });
    expect(briefStyleText(emptyBriefData()).text).toBe('');
  });
});

describe('briefWithFixes', () => {
  const brief = { ...emptyBriefData(), campaignName: 'Tani webinar', keyMessages: 'Bardzo tani' };
  // 'Tani webinar\n\nBardzo tani'

  it('puts each fix into its field, an insertion at the end into the last field', () => {
    const fixed = briefWithFixes(brief, {
      all: [finding(0, 4, 'Tani', 'Dobry'), finding(21, 25, 'tani', 'dobry'), finding(25, 25, '', '.')],
    });
    expect(fixed).toEqual({ ...brief, campaignName: 'Dobry webinar', keyMessages: 'Bardzo dobry.' });
  });

  it('cannot take a fix across two fields', () => {
    expect(briefWithFixes(brief, { one: finding(5, 20, 'webinar\n\nBardzo', 'x') })).toBeNull();
  });
});
