import { describe, expect, it } from 'vitest';

import { diffSummary, MAX_DIFF_EDITS, versionDiff } from './version-diff';

describe('versionDiff', () => {
  it('marks the words the newer text adds and drops, keeping the rest as written', () => {
    const parts = versionDiff('Webinar dla CFO już w marcu.', 'Webinar dla dyrektorów finansowych w marcu!');
    expect(parts).toEqual([
      { kind: 'same', text: 'Webinar dla ' },
      { kind: 'removed', text: 'CFO już' },
      { kind: 'added', text: 'dyrektorów finansowych' },
      { kind: 'same', text: ' w marcu' },
      { kind: 'removed', text: '.' },
      { kind: 'added', text: '!' },
    ]);
    expect(diffSummary(parts!)).toEqual({ added: 3, removed: 3 });
  });

  it('keeps Polish words whole', () => {
    expect(versionDiff('Zażółć gęślą jaźń.', 'Zażółć całą jaźń.')).toEqual([
      { kind: 'same', text: 'Zażółć ' },
      { kind: 'removed', text: 'gęślą' },
      { kind: 'added', text: 'całą' },
      { kind: 'same', text: ' jaźń.' },
    ]);
  });

  it('says nothing changed for the same text', () => {
    expect(versionDiff('Ten sam tekst.', 'Ten sam tekst.')).toEqual([
      { kind: 'same', text: 'Ten sam tekst.' },
    ]);
  });

  it('gives up on texts that differ almost everywhere', () => {
    const words = (prefix: string) =>
      Array.from({ length: MAX_DIFF_EDITS + 10 }, (_, i) => `${prefix}${i}`).join(' ');
    expect(versionDiff(words('a'), words('b'))).toBeNull();
  });
});
