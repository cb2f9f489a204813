import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';

// Tool pages load their code on demand (React.lazy); the first import of one in a test run is
// transformed on the spot, which can take more than the default second on a busy machine.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no layout, so it cannot scroll and reports every scrollTo (the router's
// ScrollRestoration calls it on each navigation) as "not implemented". Scrolling is a no-op here.
if (typeof window !== 'undefined') {
  window.scrollTo = () => {};
}

// A console.error during a test is a bug (React act() warnings, failed prop types, an error
// boundary catching something), so it fails the test. A test that expects one replaces
// console.error itself, e.g. with vi.spyOn(console, 'error').mockImplementation(...).
const originalConsoleError = console.error;
let loggedErrors: unknown[][] = [];

beforeEach(() => {
  loggedErrors = [];
  console.error = (...args: unknown[]) => {
    loggedErrors.push(args);
    originalConsoleError(...args);
  };
});

afterEach(() => {
  cleanup();
  console.error = originalConsoleError;
  if (loggedErrors.length > 0) {
    const first = loggedErrors[0]?.map(String).join(' ') ?? '';
    throw new Error(`The test logged ${loggedErrors.length} console.error call(s). First: ${first}`);
  }
});
