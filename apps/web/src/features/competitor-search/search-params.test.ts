import { describe, expect, it } from 'vitest';

import {
  checkWindow,
  convertAmount,
  parseWindow,
  readSearchParams,
  writeSearchParams,
} from './search-params';

describe('search params', () => {
  it('reads a shared address, and falls back to the defaults for what the server would refuse', () => {
    expect(
      readSearchParams(new URLSearchParams('q=+ESG+&site=kpmg.com/pl/pl/&window=w12&sort=relevance')),
    ).toEqual({
      query: 'ESG',
      site: 'kpmg.com/pl/pl/',
      window: { unit: 'w', amount: 12 },
      sort: 'relevance',
    });
    expect(readSearchParams(new URLSearchParams('window=d0&sort=popular'))).toEqual({
      query: '',
      site: '',
      window: { unit: 'd', amount: 90 },
      sort: 'date',
    });
    for (const bad of ['d0', 'w521', 'd3651', 'x5', 'd-1', 'd1.5', '', null]) {
      expect(parseWindow(bad)).toEqual({ unit: 'd', amount: 90 });
    }
    expect(parseWindow('d3650')).toEqual({ unit: 'd', amount: 3650 });
  });

  it('writes the search back, leaving out the defaults but the window', () => {
    expect(
      writeSearchParams({
        query: 'AI',
        site: '',
        window: { unit: 'd', amount: 90 },
        sort: 'date',
      }).toString(),
    ).toBe('q=AI&window=d90');
  });

  it('checks the number of days or weeks (spec §5: at least 1)', () => {
    expect(checkWindow('d', '1')).toEqual({ ok: true, window: { unit: 'd', amount: 1 } });
    expect(checkWindow('w', ' 52 ')).toEqual({ ok: true, window: { unit: 'w', amount: 52 } });
    expect(checkWindow('d', '0')).toMatchObject({ ok: false });
    expect(checkWindow('d', '-3')).toMatchObject({ ok: false });
    expect(checkWindow('w', '521')).toMatchObject({ ok: false });
  });

  it('converts between days and weeks, within the bounds', () => {
    expect(convertAmount(90, 'd', 'w')).toBe(13);
    expect(convertAmount(3, 'd', 'w')).toBe(1);
    expect(convertAmount(12, 'w', 'd')).toBe(84);
    expect(convertAmount(520, 'w', 'd')).toBe(3640);
  });
});
