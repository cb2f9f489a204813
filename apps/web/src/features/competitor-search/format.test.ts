import { describe, expect, it } from 'vitest';

import { resultsOf, shownOf } from './format';

describe('shownOf', () => {
  it('says how many of the results are shown, with the total as the count line has it', () => {
    expect(shownOf(50, { formattedTotalResults: '83' }, 'index')).toBe('50 of 83 shown');
    expect(shownOf(1_000, { formattedTotalResults: '1,234' }, 'index')).toBe('1,000 of 1,234 shown');
    expect(shownOf(20, { formattedTotalResults: '1,000+', totalCapped: true }, 'index')).toBe(
      '20 of 1,000+ shown',
    );
    // A hosted search service only estimates its total, as the count line says.
    expect(shownOf(10, { formattedTotalResults: '1,200' }, 'brave')).toBe('10 of about 1,200 shown');
    expect(resultsOf({ formattedTotalResults: '1,200', totalResults: 1200 }, 'brave')).toBe(
      'About 1,200 results',
    );
  });
});
