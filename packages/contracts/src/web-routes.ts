/**
 * Every page route of the web app (spec §2 "Route list"). The web router is built to match
 * this list (a test checks it), and the server uses it to answer unknown pages with 404.
 */
export const webRoutePatterns = [
  '/',
  '/login',
  '/register',
  '/logout',
  '/market-research',
  '/market-research/:marketId',
  '/market-research/:marketId/:subMarketId',
  '/tools',
  '/tools/article',
  '/tools/social-media-post',
  '/tools/paid-ads',
  '/tools/teaser-generator',
  '/tools/visual-brand-checker',
  '/tools/brief-creator',
  '/tools/brief-creator/finished/:briefId',
  '/tools/competitor-search',
  '/tools/qr-code-generator',
  '/tools/marketing-converter',
  '/tools/campaign-audience-builder',
  '/tools/campaign-audience-builder/report',
  '/tools/brand-voice',
  '/campaigns',
  '/campaigns/:campaignId',
  '/how-to-use',
  '/admin',
  '/admin/access',
  '/admin/usage',
  '/admin/allowances',
  '/admin/audit',
  '/admin/integrations',
  '/admin/brand-voice',
] as const;
export type WebRoutePattern = (typeof webRoutePatterns)[number];

const segment = /^[\w.~%-]+$/;

function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}

/** True when `pathname` is a page of the app. A trailing slash is tolerated. */
export function isWebRoute(pathname: string): boolean {
  const parts = withoutTrailingSlashes(pathname).split('/').slice(1);
  return webRoutePatterns.some((pattern) => {
    const want = pattern === '/' ? [] : pattern.split('/').slice(1);
    if (want.length !== parts.length) return false;
    return want.every((w, i) => {
      const got = parts[i] ?? '';
      return w.startsWith(':') ? segment.test(got) : w === got;
    });
  });
}
