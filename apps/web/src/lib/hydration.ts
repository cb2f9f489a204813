/**
 * Whether this page load started by hydrating prerendered HTML (main.tsx says so before the
 * first render). Components whose first client render must match that HTML, and then change,
 * read it when they mount: hydrating, they start from what the HTML shows and switch in a
 * transition afterwards; on any other render they start from the real value at once.
 */
let hydrating = false;

export function markHydrating(): void {
  hydrating = true;
}

export function isHydrating(): boolean {
  return hydrating;
}
