import { describe, expect, it } from 'vitest';

import { briefFileName, FALLBACK_FILE_NAME, FILE_NAME_MAX } from './file-name';

describe('briefFileName', () => {
  it.each([
    ['Spring Launch 2026', 'xlsx', 'Spring Launch 2026.xlsx'],
    ['Zażółć gęślą jaźń', 'docx', 'Zażółć gęślą jaźń.docx'],
    ['Q1/Q2: "Big" <launch>?*|\\', 'xlsx', 'Q1 Q2 Big launch.xlsx'],
    ['Tab\there\nand\u0000there', 'docx', 'Tab here and there.docx'],
    ['  ..hidden and trailing...  ', 'xlsx', 'hidden and trailing.xlsx'],
    ['', 'xlsx', `${FALLBACK_FILE_NAME}.xlsx`],
    [' ... / ', 'docx', `${FALLBACK_FILE_NAME}.docx`],
    ['CON', 'docx', 'CON-brief.docx'],
    ['lpt1', 'xlsx', 'lpt1-brief.xlsx'],
    ['com¹.plan', 'xlsx', 'com¹-brief.plan.xlsx'],
    ['Console launch', 'xlsx', 'Console launch.xlsx'],
    ['Invoice\u202Excod.docx', 'xlsx', 'Invoice xcod.docx.xlsx'],
  ] as const)('%j as .%s is %j', (title, extension, expected) => {
    expect(briefFileName(title, extension)).toBe(expected);
  });

  it('caps the length without cutting an emoji in half', () => {
    const name = briefFileName(`${'a'.repeat(FILE_NAME_MAX - 1)}👍🏽 more`, 'xlsx');
    expect(name).toBe(`${'a'.repeat(FILE_NAME_MAX - 1)}.xlsx`);
    expect(briefFileName('b'.repeat(500), 'docx')).toBe(`${'b'.repeat(FILE_NAME_MAX)}.docx`);
  });

  it('drops the spaces and dots a cut leaves at the end', () => {
    expect(briefFileName(`${'c'.repeat(FILE_NAME_MAX - 2)}. tail`, 'xlsx')).toBe(
      `${'c'.repeat(FILE_NAME_MAX - 2)}.xlsx`,
    );
  });
});
