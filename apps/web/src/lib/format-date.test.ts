import { describe, expect, it } from 'vitest';

import { formatDate, formatDateTime, formatMonthDay } from './format-date';

// Built from local parts, so the expectations hold in any time zone.
const local = (...parts: [number, number, number, number?, number?]) => new Date(...parts);

describe('formatDateTime', () => {
  it("writes 'MMM d, yyyy HH:mm' in local time (spec §9)", () => {
    expect(formatDateTime(local(2026, 10, 22, 9, 5))).toBe('Nov 22, 2026 09:05');
    expect(formatDateTime(local(2026, 2, 2, 0, 0))).toBe('Mar 2, 2026 00:00');
    expect(formatDateTime(local(2026, 8, 30, 23, 59))).toBe('Sep 30, 2026 23:59');
    expect(formatDateTime(local(2026, 10, 22, 9, 5).toISOString())).toBe('Nov 22, 2026 09:05');
  });

  it('says so when the value is not a date', () => {
    expect(formatDateTime('garbage')).toBe('Unknown date');
  });
});

describe('formatMonthDay', () => {
  it("writes 'MMM dd' in local time, or nothing for a value that is not a date", () => {
    expect(formatMonthDay(local(2026, 2, 1, 12))).toBe('Mar 01');
    expect(formatMonthDay(local(2026, 10, 22, 12).toISOString())).toBe('Nov 22');
    expect(formatMonthDay('garbage')).toBeNull();
  });
});

describe('formatDate', () => {
  it("writes a day as 'MMM d, yyyy', and 'Unknown date' for none or an invalid one", () => {
    expect(formatDate(new Date(2026, 2, 2, 23, 59))).toBe('Mar 2, 2026');
    expect(formatDate(null)).toBe('Unknown date');
    expect(formatDate('not a date')).toBe('Unknown date');
  });
});
