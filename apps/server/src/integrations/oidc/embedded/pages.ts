import { createHash } from 'node:crypto';

/**
 * GEM's own pages for the embedded provider: sign-in, sign-out and errors. Plain HTML with one
 * stylesheet and one small script served from /oidc/assets, so they work under the app's CSP
 * (no inline script or style) and load nothing from outside.
 */

export const stylesheet = `
:root { --brand: #fd5108; --brand-text: #b93d00; --ink: #1f1f1f; --muted: #5c5c5c; --line: #d6d6d6; --danger: #b00020; }
* { box-sizing: border-box; }
html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #f6f6f6; }
body { margin: 0; min-height: 100vh; display: flex; flex-direction: column; align-items: center; justify-content: center; padding: 1.5rem; }
.card { width: 100%; max-width: 24rem; background: #fff; border-top: 0.375rem solid var(--brand); border-radius: 0.5rem; box-shadow: 0 1px 3px rgba(0, 0, 0, 0.12); padding: 2rem 1.75rem; }
.brand { margin: 0 0 1.5rem; font-size: 1.75rem; font-weight: 800; letter-spacing: 0.04em; color: var(--ink); }
.brand span { color: var(--brand); }
h1 { font-size: 1.25rem; margin: 0 0 1.25rem; }
p { line-height: 1.5; margin: 0 0 1rem; color: var(--muted); }
label { display: block; font-weight: 600; margin: 0 0 0.375rem; }
input[type="email"], input[type="password"] { display: block; width: 100%; font: inherit; padding: 0.625rem 0.75rem; border: 1px solid #8a8a8a; border-radius: 0.25rem; margin: 0 0 1rem; }
input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid var(--brand); outline-offset: 2px; }
button { display: block; width: 100%; font: inherit; font-weight: 700; padding: 0.75rem; border: 0; border-radius: 0.25rem; background: var(--ink); color: #fff; cursor: pointer; }
button:hover { background: #000; }
.error { color: var(--danger); background: #fdecee; border-left: 0.25rem solid var(--danger); padding: 0.625rem 0.75rem; margin: 0 0 1rem; }
a { color: var(--brand-text); }
.footnote { margin-top: 1.25rem; font-size: 0.875rem; }
`;

/** Runs only on the sign-out page: submits it, so GEM's own sign-out needs no extra click. */
export const signOutScript = `document.addEventListener('DOMContentLoaded', function () {
  var button = document.getElementById('sign-out');
  if (button && button.getAttribute('data-auto') === 'yes') button.click();
});
`;

const version = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);
export const assetPaths = {
  stylesheet: `/oidc/assets/sign-in.${version(stylesheet)}.css`,
  signOutScript: `/oidc/assets/sign-out.${version(signOutScript)}.js`,
} as const;

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

function layout(title: string, body: string, script?: string) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · GEM</title>
<link rel="stylesheet" href="${assetPaths.stylesheet}">
${script ? `<script src="${script}" defer></script>` : ''}
</head>
<body>
<main class="card">
<p class="brand">GE<span>M</span></p>
${body}
</main>
</body>
</html>`;
}

export function signInPage(opts: { action: string; csrf: string; email?: string; error?: string }) {
  const error = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : '';
  return layout(
    'Sign in',
    `<h1>Sign in to GEM</h1>
${error}<form method="post" action="${escapeHtml(opts.action)}" novalidate>
<input type="hidden" name="csrf" value="${escapeHtml(opts.csrf)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(opts.email ?? '')}"${opts.email ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${opts.email ? ' autofocus' : ''}>
<button type="submit">Sign in</button>
</form>
<p class="footnote">GEM's built-in sign-in for local accounts.</p>`,
  );
}

/** `form` is the provider's own (action and xsrf secret); the button submits it with logout=yes. */
export function signOutPage(opts: { form: string; auto: boolean; homeUrl: string }) {
  return layout(
    'Sign out',
    `<h1>${opts.auto ? 'Signing you out…' : 'Sign out of GEM?'}</h1>
${opts.form}
<button id="sign-out" type="submit" form="op.logoutForm" name="logout" value="yes" data-auto="${opts.auto ? 'yes' : 'no'}">Sign out</button>
<p class="footnote"><a href="${escapeHtml(opts.homeUrl)}">Back to GEM</a></p>`,
    assetPaths.signOutScript,
  );
}

export function messagePage(opts: { title: string; message: string; homeUrl: string }) {
  return layout(
    opts.title,
    `<h1>${escapeHtml(opts.title)}</h1>
<p>${escapeHtml(opts.message)}</p>
<p><a href="${escapeHtml(opts.homeUrl)}">Go to GEM</a></p>`,
  );
}
