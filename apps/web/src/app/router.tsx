import { lazy, useState, type ComponentType } from 'react';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router';

import { AccessGate } from '@/features/identity/components/access-gate';

import { RootLayout } from './layout/root-layout';
import { HomeRoute } from './routes/home';
import { LoginRoute } from './routes/login';
import { LogoutRoute } from './routes/logout';
import { MarketResearchRoute } from './routes/market-research';
import { NotFoundRoute } from './routes/not-found';
import { PageIncoming } from './routes/page-incoming';
import { RegisterRoute } from './routes/register';
import { RootErrorRoute, RouteErrorContent } from './routes/route-error';
import { ToolPageIncoming } from './routes/tool-page-incoming';
import { ToolsRoute } from './routes/tools';

/** A page whose code loads when it is first shown, so the home page does not carry every tool. */
function lazyPage<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

const ArticleRoute = lazyPage(() => import('./routes/article'), 'ArticleRoute');
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
  { path: '/tools/qr-code-generator', element: <QrCodeGeneratorRoute /> },
];

const gatedPages: RouteObject[] = [
  // Spec §2: home has its own error page; it renders inside the layout.
  { path: '/', element: <HomeRoute />, errorElement: <RouteErrorContent /> },
  { path: '/market-research', element: <MarketResearchRoute /> },
  { path: '/market-research/:marketId', element: <MarketAreaRoute /> },
  { path: '/market-research/:marketId/:subMarketId', element: <MarketAreaRoute /> },
  { path: '/tools', element: <ToolsRoute /> },
  { path: '/tools/article', element: <ArticleRoute /> },
  { path: '/tools/social-media-post', element: <SocialMediaPostRoute /> },
  { path: '/tools/paid-ads', element: <PaidAdsRoute /> },
  { path: '/tools/teaser-generator', element: <TeaserGeneratorRoute /> },
  { path: '/tools/visual-brand-checker', element: <VisualBrandCheckerRoute /> },
  { path: '/tools/brief-creator', element: <ToolPageIncoming slug="brief-creator" /> },
  {
    path: '/tools/brief-creator/finished/:briefId',
    element: (
      <PageIncoming
        subject="Finished brief"
        trail={[
          { label: 'Tools', to: '/tools' },
          { label: 'Brief creator', to: '/tools/brief-creator' },
          { label: 'Finished brief' },
        ]}
        back={{ to: '/tools', label: 'Back to all tools' }}
        imageSrc="/images/tools/brief-creator.svg"
      />
    ),
  },
  { path: '/tools/competitor-search', element: <ToolPageIncoming slug="competitor-search" /> },
  { path: '/tools/marketing-converter', element: <MarketingConverterRoute /> },
  {
    path: '/tools/campaign-audience-builder',
    element: <ToolPageIncoming slug="campaign-audience-builder" />,
  },
  { path: '/how-to-use', element: <HowToUseRoute /> },
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

export function AppRouter() {
  // Created once per mount, not at import, so tests can import `routes` without a browser router.
  const [router] = useState(() => createBrowserRouter(routes));
  return <RouterProvider router={router} />;
}
