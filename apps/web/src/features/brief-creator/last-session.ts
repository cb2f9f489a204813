/**
 * The chat this browser had open last (issue 27): coming back to Brief Creator without a session
 * in the URL reopens it. A session id, or 'new' for a new chat; the server still decides whether
 * it is the user's and open. Storage that is off or full only means the newest session opens.
 */
const KEY = 'gem:brief-creator:last-session';

/** The URL's word for a new, empty chat: `?session=new`. */
export const NEW_CHAT = 'new';

export const isSessionId = (value: string | null): value is string =>
  value !== null && /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i.test(value);

export function rememberLastSession(value: string): void {
  try {
    window.localStorage.setItem(KEY, value);
  } catch {
    // Storage is off: the newest session opens next time.
  }
}

export function lastSession(): string | null {
  try {
    const value = window.localStorage.getItem(KEY);
    return value === NEW_CHAT || isSessionId(value) ? value : null;
  } catch {
    return null;
  }
}
