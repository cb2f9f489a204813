import { describe, expect, it } from 'vitest';
import { isWebRoute } from './web-routes';

describe('isWebRoute', () => {
  it.each([
    '/',
    '/tools',
    '/tools/',
    '/tools/article',
    '/market-research/esg',
    '/market-research/priority-clients/pko-bp',
    '/tools/brief-creator/finished/3f2a',
    '/how-to-use',
  ])('knows %s', (path) => {
    expect(isWebRoute(path)).toBe(true);
  });

  it.each(['/nope', '/tools/article/extra', '/market-research/a/b/c', '/api/health', '/tools/unknown-tool'])(
    'does not know %s',
    (path) => {
      expect(isWebRoute(path)).toBe(false);
    },
  );
});
