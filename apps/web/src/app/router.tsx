import { lazy, useState, type ComponentType } from 'react';
import {
  createBrowserRouter,
  matchRoutes,
  RouterProvider,
  type DataRouter,
  type RouteObject,
} from 'react-router';

import { AccessGate } from '@/features/identity/components/access-gate';

import { RootLayout } from './layout/root-layout';
import { HomeRoute } from './routes/home';
import { LoginRoute } from './routes/login';
import { LogoutRoute } from './routes/logout';
import { MarketResearchRoute } from './routes/market-research';
import { NotFoundRoute } from './routes/not-found';
import { RegisterRoute } from './routes/register';
import { RootErrorRoute, RouteErrorContent } from './routes/route-error';
import { ToolsRoute } from './routes/tools';

type LazyPage = ComponentType & { preload(): Promise<unknown> };

/**
 * A page whose code loads when it is first shown, so the home page does not carry every tool.
 * `preload` fetches it ahead: the app does so for the page it opens on, so that page renders
 * (or hydrates its prerendered HTML) in one go instead of showing the loading state first.
 */
function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
): LazyPage {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = () =>
    (loading ??= load().then((module) => {
      loaded = module[name];
      return loaded;
    }));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Page() {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  }
  return Object.assign(Page, { preload });
}

/** Route data: how to fetch the page's code ahead (see lazyPage). */
type RouteHandle = { preload?: () => Promise<unknown> };
const lazyRoute = (path: string, Page: LazyPage): RouteObject => ({
  path,
  element: <Page />,
  handle: { preload: Page.preload } satisfies RouteHandle,
});

/** Fetches the code of the lazy pages `pathname` shows. Resolves when it is there. */
export async function preloadRoute(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(matches.map((match) => (match.route.handle as RouteHandle | undefined)?.preload?.()));
}

const AdminRoute = lazyPage(() => import('./routes/admin'), 'AdminRoute');
const ArticleRoute = lazyPage(() => import('./routes/article'), 'ArticleRoute');
const BrandVoiceRoute = lazyPage(() => import('./routes/brand-voice'), 'BrandVoiceRoute');
const BriefCreatorRoute = lazyPage(() => import('./routes/brief-creator'), 'BriefCreatorRoute');
const BriefCreatorFinishedRoute = lazyPage(
  () => import('./routes/brief-creator-finished'),
  'BriefCreatorFinishedRoute',
);
const CampaignAudienceBuilderRoute = lazyPage(
  () => import('./routes/campaign-audience-builder'),
  'CampaignAudienceBuilderRoute',
);
const CampaignAudienceBuilderReportRoute = lazyPage(
  () => import('./routes/campaign-audience-builder-report'),
  'CampaignAudienceBuilderReportRoute',
);
const CampaignRoute = lazyPage(() => import('./routes/campaign'), 'CampaignRoute');
const CampaignsRoute = lazyPage(() => import('./routes/campaigns'), 'CampaignsRoute');
const CompetitorSearchRoute = lazyPage(() => import('./routes/competitor-search'), 'CompetitorSearchRoute');
const HowToUseRoute = lazyPage(() => import('./routes/how-to-use'), 'HowToUseRoute');
const MarketAreaRoute = lazyPage(() => import('./routes/market-area'), 'MarketAreaRoute');
const MarketingConverterRoute = lazyPage(
  () => import('./routes/marketing-converter'),
  'MarketingConverterRoute',
);
const PaidAdsRoute = lazyPage(() => import('./routes/paid-ads'), 'PaidAdsRoute');
const QrCodeGeneratorRoute = lazyPage(() => import('./routes/qr-code-generator'), 'QrCodeGeneratorRoute');
const SocialMediaPostRoute = lazyPage(() => import('./routes/social-media-post'), 'SocialMediaPostRoute');
const TeaserGeneratorRoute = lazyPage(() => import('./routes/teaser-generator'), 'TeaserGeneratorRoute');
const VisualBrandCheckerRoute = lazyPage(
  () => import('./routes/visual-brand-checker'),
  'VisualBrandCheckerRoute',
);

/**
 * Every page of the app is in `webRoutePatterns` (contracts), which the server also uses; a
 * test keeps the two equal. Pages still marked PageIncoming are built later.
 * Spec §4: every page sits behind the access gate except these.
 */
const publicPages: RouteObject[] = [
  { path: '/login', element: <LoginRoute /> },
  { path: '/register', element: <RegisterRoute /> },
  { path: '/logout', element: <LogoutRoute /> },
  lazyRoute('/tools/qr-code-generator', QrCodeGeneratorRoute),
];

const gatedPages: RouteObject[] = [
  // Spec §2: home has its own error page; it renders inside the layout.
  { path: '/', element: <HomeRoute />, errorElement: <RouteErrorContent /> },
  { path: '/market-research', element: <MarketResearchRoute /> },
  lazyRoute('/market-research/:marketId', MarketAreaRoute),
  lazyRoute('/market-research/:marketId/:subMarketId', MarketAreaRoute),
  { path: '/tools', element: <ToolsRoute /> },
  lazyRoute('/tools/article', ArticleRoute),
  lazyRoute('/tools/social-media-post', SocialMediaPostRoute),
  lazyRoute('/tools/paid-ads', PaidAdsRoute),
  lazyRoute('/tools/teaser-generator', TeaserGeneratorRoute),
  lazyRoute('/tools/visual-brand-checker', VisualBrandCheckerRoute),
  lazyRoute('/tools/brief-creator', BriefCreatorRoute),
  lazyRoute('/tools/brief-creator/finished/:briefId', BriefCreatorFinishedRoute),
  lazyRoute('/tools/competitor-search', CompetitorSearchRoute),
  lazyRoute('/tools/marketing-converter', MarketingConverterRoute),
  lazyRoute('/tools/campaign-audience-builder', CampaignAudienceBuilderRoute),
  lazyRoute('/tools/campaign-audience-builder/report', CampaignAudienceBuilderReportRoute),
  lazyRoute('/tools/brand-voice', BrandVoiceRoute),
  lazyRoute('/campaigns', CampaignsRoute),
  lazyRoute('/campaigns/:campaignId', CampaignRoute),
  lazyRoute('/how-to-use', HowToUseRoute),
  lazyRoute('/admin', AdminRoute),
  lazyRoute('/admin/access', AdminRoute),
  lazyRoute('/admin/usage', AdminRoute),
  lazyRoute('/admin/allowances', AdminRoute),
  lazyRoute('/admin/audit', AdminRoute),
  lazyRoute('/admin/integrations', AdminRoute),
  lazyRoute('/admin/brand-voice', AdminRoute),
];

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RootErrorRoute />,
    children: [
      ...publicPages,
      { element: <AccessGate />, children: gatedPages },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

/** The app's routes in the browser, or in the given router (prerendering uses a memory router). */
export function AppRouter({ router: given }: { router?: DataRouter }) {
  // Created once per mount, not at import, so tests can import `routes` without a browser router.
  const [router] = useState(() => given ?? createBrowserRouter(routes));
  return <RouterProvider router={router} />;
}
