// Prerenders the public pages, the 404 page and the app's frame into the client build
// (`vite build` first; `npm run build` runs both). It builds src/app/prerender.tsx for Node
// with the same Vite config, renders each page, and writes:
//   dist/index.html            the frame, for every page that is not prerendered
//   dist/pages/<path>.html     each public page
//   dist/pages/404.html        the 404 page
//   dist/prerendered.json      which file answers which path (read by apps/server web-app.ts)
// Each page links its own stylesheets and preloads its route's code. No inline script: the
// CSP allows none; the app starts from the same external entry as before.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

const webDir = path.resolve(import.meta.dirname, '..');
const distDir = path.join(webDir, 'dist');
const manifestFile = path.join(distDir, '.vite/manifest.json');
const serverOutDir = path.join(webDir, 'node_modules/.cache/gem-prerender');

if (!existsSync(manifestFile)) throw new Error('Run `vite build` first: dist/.vite/manifest.json is missing');
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
// The page's own markup and stylesheets come first: the scripts (the entry and the chunks it
// preloads) are fetched at low priority, so on a slow link they do not hold up the first paint,
// which needs none of them.
const lowPriority = (html) =>
  html.replace(/<(script type="module"|link rel="modulepreload")/g, '<$1 fetchpriority="low"');
const template = lowPriority(readFileSync(path.join(distDir, 'index.html'), 'utf8'));

await build({
  root: webDir,
  logLevel: 'warn',
  build: {
    ssr: 'src/app/prerender.tsx',
    outDir: serverOutDir,
    emptyOutDir: true,
    copyPublicDir: false,
    manifest: false,
  },
});
const { renderPage, publicPages, shellPath, notFoundPath } = await import(
  pathToFileURL(path.join(serverOutDir, 'prerender.js')).href
);

/** A chunk and every chunk it imports statically. */
function chunksOf(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  if (!manifest[key]) throw new Error(`${key} is not in the Vite manifest`);
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) chunksOf(imported, seen);
  return seen;
}
// index.html loads and preloads these already.
const entryChunks = chunksOf(Object.keys(manifest).find((key) => manifest[key].isEntry));

const decodeHtml = (text) =>
  text.replace(
    /&(amp|lt|gt|quot|#x27|#39);/g,
    (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" })[e],
  );
const cssEscape = (id) => id.replace(/[^\w-]/g, (c) => `\\${c.codePointAt(0).toString(16)} `);

/**
 * The CSP (style-src 'self') blocks style attributes in HTML; React sets the same styles
 * through the CSSOM, which it allows. So each style attribute of a prerendered page moves into
 * a stylesheet, as a rule for that element (by id) on that page. Hydration leaves the element
 * as it is; when React later changes the style, its inline value wins over the rule.
 */
const movedStyles = [];
function moveStyleAttributes(pagePath, html) {
  return html.replace(/<[a-z][^>]*\sstyle="[^"]*"[^>]*>/gi, (tag) => {
    const id = tag.match(/\sid="([^"]*)"/)?.[1];
    if (!id) throw new Error(`${pagePath}: an element with a style attribute needs an id: ${tag}`);
    const style = tag.match(/\sstyle="([^"]*)"/)[1];
    movedStyles.push(
      `[data-prerendered="${pagePath}"] #${cssEscape(decodeHtml(id))} { ${decodeHtml(style)} }`,
    );
    return tag.replace(/\sstyle="[^"]*"/, '');
  });
}

const escapeHtml = (text) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

function pageHtml({ path: pagePath, html: markup, title, module, hydrate, stylesheet }) {
  let html = markup;
  if (/<script|<template|\sstyle="/i.test(html)) {
    throw new Error(
      `${pagePath}: the prerendered markup has a script, template or style attribute (the CSP allows none)`,
    );
  }
  // React puts preloads for the page's first images before the markup: they belong in <head>.
  const preloads = html.match(/^(?:<link [^>]*\/>)*/)?.[0] ?? '';
  const head = preloads ? preloads.split(/(?<=\/>)/).map((link) => link.replace(/\/>$/, '>')) : [];
  html = html.slice(preloads.length);
  for (const key of module ? chunksOf(module) : []) {
    if (entryChunks.has(key)) continue;
    for (const css of manifest[key].css ?? [])
      head.push(`<link rel="stylesheet" crossorigin href="/${css}">`);
    head.push(lowPriority(`<link rel="modulepreload" crossorigin href="/${manifest[key].file}">`));
  }
  let out = template;
  if (stylesheet) head.push(`<link rel="stylesheet" crossorigin href="/${stylesheet}">`);
  if (title) out = out.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`);
  // After the entry's own stylesheet, so the cascade is the one the browser builds later.
  if (head.length) out = out.replace('</head>', `    ${head.join('\n    ')}\n  </head>`);
  const root = hydrate ? `<div id="root" data-prerendered="${escapeHtml(pagePath)}">` : '<div id="root">';
  if (!out.includes('<div id="root"></div>'))
    throw new Error('index.html has no empty <div id="root"></div>');
  return out.replace('<div id="root"></div>', `${root}${html}</div>`);
}

const written = { pages: {}, notFound: 'pages/404.html', notFoundPathMarker: notFoundPath };
const write = (file, content) => {
  mkdirSync(path.dirname(path.join(distDir, file)), { recursive: true });
  writeFileSync(path.join(distDir, file), content);
};

const rendered = [];
for (const page of publicPages) {
  const { html, title } = await renderPage(page.path);
  const before = movedStyles.length;
  rendered.push({
    ...page,
    html: moveStyleAttributes(page.path, html),
    title,
    styled: movedStyles.length > before,
  });
}
let stylesheet;
if (movedStyles.length) {
  const css = `${movedStyles.join('\n')}\n`;
  stylesheet = `assets/prerendered-${createHash('sha256').update(css).digest('hex').slice(0, 8)}.css`;
  write(stylesheet, css);
}
for (const { styled, ...page } of rendered) {
  const file = `pages${page.path}.html`;
  write(file, pageHtml({ ...page, hydrate: true, stylesheet: styled ? stylesheet : undefined }));
  written.pages[page.path] = file;
}
// The 404 page and the frame are replaced by the browser's first render, not hydrated: they
// were rendered for another path than the one they are served at.
write(
  written.notFound,
  pageHtml({ path: notFoundPath, ...(await renderPage(notFoundPath)), hydrate: false }),
);
const shell = await renderPage(shellPath);
write('index.html', pageHtml({ path: shellPath, html: shell.html, title: undefined, hydrate: false }));
write('prerendered.json', `${JSON.stringify(written, null, 2)}\n`);

// The manifest served its purpose; it is not for the browser.
rmSync(path.join(distDir, '.vite'), { recursive: true, force: true });
rmSync(serverOutDir, { recursive: true, force: true });
console.log(`prerendered ${Object.keys(written.pages).join(', ')}, the 404 page and the frame`);
// The rendered app leaves timers behind (the query cache's garbage collection, five minutes):
// the build is done, so it does not wait for them.
process.exit(0);
