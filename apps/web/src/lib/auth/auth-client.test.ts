import { describe, expect, it } from 'vitest';

import { isSigninCallback, shouldFallBackToRedirect } from './auth-client';

describe('shouldFallBackToRedirect (spec §4)', () => {
  it.each([
    'Popup closed by user',
    'Popup window closed',
    'Error opening popup window',
    'Attempted to navigate on a disposed window',
    'Blocked by Cross-Origin-Opener-Policy',
  ])('falls back to a redirect for "%s"', (message) => {
    expect(shouldFallBackToRedirect(new Error(message))).toBe(true);
  });

  it.each(['access_denied', 'Network Error', 'invalid_grant'])('throws "%s"', (message) => {
    expect(shouldFallBackToRedirect(new Error(message))).toBe(false);
  });
});

describe('isSigninCallback', () => {
  it('recognises the provider answer, success or error', () => {
    expect(isSigninCallback(new URL('https://gem.example/?code=abc&state=xyz'))).toBe(true);
    expect(isSigninCallback(new URL('https://gem.example/?error=access_denied&state=xyz'))).toBe(true);
    expect(isSigninCallback(new URL('https://gem.example/tools?code=abc'))).toBe(false);
    expect(isSigninCallback(new URL('https://gem.example/'))).toBe(false);
  });
});
