import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { REGISTRATION_REDIRECT_MS, RegistrationNotice } from './registration-notice';

// Fake timers: the 5 s wait passes in no time.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function renderNotice() {
  const router = createMemoryRouter(
    [
      { path: '/register', element: <RegistrationNotice /> },
      { path: '/login', element: <h1>Sign in</h1> },
    ],
    { initialEntries: ['/register'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('registration notice', () => {
  it('explains where registration went, with a way to the sign-in page', () => {
    renderNotice();
    expect(screen.getByRole('heading', { level: 1, name: 'Registration has moved' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
    expect(document.title).toBe('Registration · GEM');
  });

  it('counts down and moves on to /login after 5 s (spec §4/§9)', () => {
    expect(REGISTRATION_REDIRECT_MS).toBe(5000);
    const router = renderNotice();
    expect(screen.getByText('Taking you to the sign-in page in 5 s.')).toBeVisible();
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByText('Taking you to the sign-in page in 4 s.')).toBeVisible();
    act(() => vi.advanceTimersByTime(REGISTRATION_REDIRECT_MS - 1001));
    expect(router.state.location.pathname).toBe('/register');
    act(() => vi.advanceTimersByTime(1));
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  });
});
