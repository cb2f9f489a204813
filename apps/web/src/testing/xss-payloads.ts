/**
 * Model output that tries to run script, as markdown and as raw HTML. Each payload, if it ever
 * ran, would set `window.__gemXss`; a test renders them all and checks it never is. Used by the
 * formatted-output unit test (jsdom) and the teaser end-to-end test (Chromium).
 */
const hit = 'window.__gemXss=1';

export const xssPayloads: readonly string[] = [
  // Raw HTML: must show as text, never become elements.
  `<script>${hit}</script>`,
  `<img src=x onerror="${hit}">`,
  `<svg onload="${hit}"></svg>`,
  `<svg><script>${hit}</script></svg>`,
  `<iframe src="javascript:${hit}"></iframe>`,
  `<iframe srcdoc="<script>parent.${hit}</script>"></iframe>`,
  `<body onload="${hit}">`,
  `<div onmouseover="${hit}">hover</div>`,
  `<a href="javascript:${hit}">raw link</a>`,
  `<object data="javascript:${hit}"></object>`,
  `<embed src="javascript:${hit}">`,
  `<form action="javascript:${hit}"><button>go</button></form>`,
  `<input autofocus onfocus="${hit}">`,
  `<details open ontoggle="${hit}">`,
  `<math><mi xlink:href="javascript:${hit}">m</mi></math>`,
  `<style>@import 'javascript:${hit}';</style>`,
  `<meta http-equiv="refresh" content="0;url=javascript:${hit}">`,
  `<base href="javascript:${hit}//">`,
  `<video><source onerror="${hit}"></video>`,
  `<scr<script>ipt>${hit}</scr</script>ipt>`,
  // Markdown links and images with dangerous URLs: must lose the URL.
  `[click](javascript:${hit})`,
  `[click](JAVASCRIPT:${hit})`,
  `[click](  javascript:${hit})`,
  `[click](java\tscript:${hit})`,
  `[click](&#106;avascript:${hit})`,
  `[click](javascript&colon;${hit})`,
  `[click](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19nZW1Yc3M9MTwvc2NyaXB0Pg==)`,
  `[click](vbscript:msgbox(1))`,
  `[click](file:///etc/passwd)`,
  `[ref][x]\n\n[x]: javascript:${hit}`,
  `<javascript:${hit}>`,
  `![img](javascript:${hit})`,
  `![img](x" onerror="${hit})`,
  `[title](https://example.com "x\\" onmouseover=\\"${hit}")`,
  '```html\n<script>window.__gemXss=1</script>\n```',
];

/** What a payload may never leave in the DOM. */
export const forbiddenSelectors = [
  'script',
  'iframe',
  'object',
  'embed',
  'form',
  'input',
  'style',
  'meta',
  'base',
  'svg',
  'math',
  'video',
  'img',
  'details',
] as const;
