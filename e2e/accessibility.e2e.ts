import { webRoutePatterns, type WebRoutePattern } from '@gem/contracts/web-routes';
import { briefChatTurn } from '@gem/test-servers/brief-replies';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAiControl } from './support/ai-control';
import { audit } from './support/axe';
import { pageProblems, useBrowser, viewports } from './support/browser';
import { admin, marketer, signInWithPopup } from './support/sign-in';

// Every page of GEM, signed out and signed in, at 1440 × 900 and 390 × 844, checked with axe-core
// (decision 023): a serious or critical violation fails the run, named by rule, element and help.
// axe's rules run as it ships them, plus Label in Name (WCAG 2.5.3), which it ships switched off.

const browser = useBrowser();
const { script } = useAiControl();

type Width = keyof typeof viewports;

type Visit = {
  /** Which page of the router this is; null for a state no route names (the 404, the menu). */
  route: WebRoutePattern | null;
  name: string;
  /** Where to go; a function for a page whose address needs a record first. */
  path: string | ((page: Page, width: Width, found: string[]) => Promise<string>);
  /** Resolves once the page shows what it is for (its data loaded, not a loading state). */
  ready: (page: Page) => Promise<unknown>;
  /** Only at this width (the mobile menu). */
  only?: Width;
  /** Run on the page as it is, after the visit before (the menu opens on the page it is on). */
  stay?: boolean;
  /** Something to do on the page before it is checked. */
  act?: (page: Page) => Promise<unknown>;
};

const heading = (name: string) => (page: Page) =>
  page.getByRole('heading', { level: 1, name, exact: true }).waitFor({ timeout: 15_000 });
const inMain = (selector: string) => (page: Page) =>
  page.locator('main').locator(selector).first().waitFor({ timeout: 15_000 });

/** Before signing in (the pages anyone may open). */
const publicVisits: Visit[] = [
  { route: '/login', name: 'login', path: '/login', ready: heading('Sign in with your Microsoft account') },
  { route: '/register', name: 'register', path: '/register', ready: (page) => page.locator('h1').waitFor() },
  {
    route: '/tools/qr-code-generator',
    name: 'QR code generator',
    path: '/tools/qr-code-generator',
    ready: heading('QR code generator'),
  },
  { route: null, name: 'not found', path: '/no-such-page', ready: heading('Page not found') },
];

/** Signed in as the marketer, in this order; /logout last. */
const signedInVisits: Visit[] = [
  { route: '/', name: 'home', path: '/', ready: heading('Welcome to Generative and enhanced marketing') },
  {
    route: null,
    name: 'mobile menu',
    path: '/',
    only: 'mobile',
    stay: true,
    ready: (page) => page.getByRole('dialog', { name: 'Menu' }).waitFor(),
    act: (page) => page.getByRole('button', { name: 'Menu' }).click(),
  },
  {
    route: '/market-research',
    name: 'market research',
    path: '/market-research',
    ready: heading('Market Research'),
  },
  {
    route: '/market-research/:marketId',
    name: 'market area',
    path: '/market-research/technology',
    ready: inMain('article'),
  },
  {
    route: '/market-research/:marketId/:subMarketId',
    name: 'market sub-area',
    path: '/market-research/priority-clients/orlen',
    ready: inMain('article'),
  },
  {
    route: '/market-research/:marketId',
    name: 'market area without a feed',
    path: '/market-research/real_estate',
    ready: (page) => page.getByRole('heading', { name: 'No feed configured' }).waitFor({ timeout: 15_000 }),
  },
  { route: '/tools', name: 'tools', path: '/tools', ready: heading('Tools') },
  { route: '/tools/article', name: 'article', path: '/tools/article', ready: heading('Article') },
  {
    route: '/tools/social-media-post',
    name: 'social media post',
    path: '/tools/social-media-post',
    ready: heading('Social media post'),
  },
  { route: '/tools/paid-ads', name: 'paid ads', path: '/tools/paid-ads', ready: heading('Paid ads') },
  {
    route: '/tools/teaser-generator',
    name: 'teaser generator',
    path: '/tools/teaser-generator',
    ready: heading('Teaser generator'),
  },
  {
    route: '/tools/brand-voice',
    name: 'check text',
    path: '/tools/brand-voice',
    ready: heading('Check text'),
  },
  {
    route: '/tools/brand-voice',
    name: 'check text with findings',
    path: '/tools/brand-voice',
    // Checked with its findings shown: the marks, the counts, the list with Apply.
    act: async (page) => {
      await page.getByLabel('Text to check').fill('Oferujemy TANI audyt!! Zapraszamy na "spotkanie".');
      await page.getByRole('button', { name: 'Check', exact: true }).click();
    },
    ready: (page) => page.getByRole('list', { name: 'Findings', exact: true }).waitFor({ timeout: 15_000 }),
  },
  {
    route: '/tools/visual-brand-checker',
    name: 'visual brand checker',
    path: '/tools/visual-brand-checker',
    ready: inMain('iframe'),
  },
  {
    route: '/tools/brief-creator',
    name: 'brief creator',
    path: '/tools/brief-creator?session=new',
    ready: (page) =>
      page.getByText("I'm your brief assistant", { exact: false }).waitFor({ timeout: 15_000 }),
  },
  {
    route: '/tools/brief-creator/finished/:briefId',
    name: 'finished brief',
    path: (page, width, found) => finishedBrief(page, width, found),
    ready: heading('Accessible Spring Webinar'),
  },
  {
    route: '/campaigns/:campaignId',
    name: 'campaign',
    path: (page) => campaignFromBrief(page),
    ready: (page) =>
      page.getByRole('region', { name: 'Brief versions' }).getByRole('article').first().waitFor(),
  },
  {
    route: '/campaigns',
    name: 'campaigns',
    path: '/campaigns',
    ready: (page) => page.getByRole('list', { name: 'Campaigns' }).getByRole('article').first().waitFor(),
  },
  {
    route: '/tools/competitor-search',
    name: 'competitor search',
    path: '/tools/competitor-search',
    ready: (page) => page.getByText(/^Sample corpus: [\d,]+ pages/).waitFor({ timeout: 15_000 }),
  },
  {
    route: '/tools/competitor-search',
    name: 'competitor search results',
    path: '/tools/competitor-search?q=ESG&window=d90',
    ready: async (page) => {
      await page
        .getByRole('figure', { name: 'Matching pages per week, by competitor' })
        .waitFor({ timeout: 15_000 });
      await page.locator('figure svg[aria-hidden="true"]').first().waitFor();
    },
  },
  {
    route: '/tools/marketing-converter',
    name: 'marketing converter',
    path: '/tools/marketing-converter',
    ready: heading('Marketing converter'),
  },
  {
    route: '/tools/campaign-audience-builder',
    name: 'campaign audience builder',
    path: '/tools/campaign-audience-builder',
    ready: (page) => recentCampaigns(page).first().waitFor({ timeout: 15_000 }),
  },
  {
    route: '/tools/campaign-audience-builder/report',
    name: 'audience report',
    path: (page) => audienceReport(page),
    ready: (page) => page.locator('main table tbody tr').first().waitFor({ timeout: 15_000 }),
  },
  { route: '/how-to-use', name: 'how to use', path: '/how-to-use', ready: heading('How to use GEM') },
  // Signs out and lands on /login.
  {
    route: '/logout',
    name: 'logout',
    path: '/logout',
    ready: async (page) => {
      await page.waitForURL('**/login', { timeout: 15_000 });
      await heading('Sign in with your Microsoft account')(page);
    },
  },
];

/** Signed in as the demo administrator (issue 30): the admin area; /logout last. */
const adminVisits: Visit[] = [
  {
    route: '/admin',
    name: 'admin (access)',
    path: '/admin',
    ready: (page) => inMain('text=admin@example.com')(page),
  },
  {
    route: '/admin/access',
    name: 'admin access',
    path: '/admin/access',
    ready: (page) => inMain('text=admin@example.com')(page),
  },
  {
    route: '/admin/usage',
    name: 'admin usage',
    path: '/admin/usage',
    ready: (page) => page.getByRole('region', { name: 'Totals' }).waitFor({ timeout: 15_000 }),
  },
  {
    route: '/admin/allowances',
    name: 'admin allowances',
    path: '/admin/allowances',
    ready: (page) => inMain('text=admin@example.com')(page),
  },
  {
    route: '/admin/audit',
    name: 'admin audit log',
    path: '/admin/audit',
    ready: (page) =>
      page.getByRole('list', { name: 'Audit entries, newest first' }).waitFor({ timeout: 15_000 }),
  },
  {
    route: '/admin/integrations',
    name: 'admin integrations',
    path: '/admin/integrations',
    ready: (page) => page.getByRole('heading', { name: 'AI service' }).waitFor({ timeout: 15_000 }),
  },
  {
    route: '/admin/brand-voice',
    name: 'admin brand voice',
    path: '/admin/brand-voice',
    ready: (page) => page.getByRole('list', { name: 'Versions, newest first' }).waitFor({ timeout: 15_000 }),
  },
  {
    route: '/logout',
    name: 'logout (admin)',
    path: '/logout',
    ready: async (page) => {
      await page.waitForURL('**/login', { timeout: 15_000 });
      await heading('Sign in with your Microsoft account')(page);
    },
  },
];

const recentCampaigns = (page: Page) =>
  page.getByRole('list', { name: 'Recent campaigns' }).getByRole('button');

/** A finished brief (the details page needs one): one chat turn, then Accept brief and Accept anyway. */
async function finishedBrief(page: Page, width: Width, found: string[]): Promise<string> {
  await page.goto('/tools/brief-creator?session=new');
  const chat = page.getByRole('region', { name: 'Chat with the assistant' });
  await chat.getByText("I'm your brief assistant", { exact: false }).waitFor({ timeout: 15_000 });
  await script({
    kind: 'object',
    value: briefChatTurn('Noted: a spring webinar for finance leaders.', {
      campaignName: 'Accessible Spring Webinar',
      campaignType: ['Webinar'],
      primaryObjective: 'Leads from CFOs',
    }),
  });
  const input = chat.getByLabel('Your message');
  await input.fill('A spring webinar for CFOs.');
  await input.press('Enter');
  await chat.getByText('Noted: a spring webinar for finance leaders.').waitFor({ timeout: 15_000 });
  await chat.getByRole('button', { name: 'Accept brief' }).click();
  // Required fields are still empty: GEM asks first (issue 27), and the question is checked too.
  const question = chat.getByRole('alertdialog');
  await question.waitFor({ timeout: 15_000 });
  found.push(...(await audit(page, `accept question (${width})`)));
  await question.getByRole('button', { name: 'Accept anyway' }).click();
  const link = chat.getByRole('link', { name: 'View the finished brief' });
  await link.waitFor({ timeout: 15_000 });
  return (await link.getAttribute('href')) ?? '';
}

/** A campaign of the finished brief the visit before opened (its Create campaign). */
async function campaignFromBrief(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/campaigns/'), { timeout: 15_000 });
  return new URL(page.url()).pathname;
}

/** A report of the demo CRM's first recent campaign, as 'Open Report' links it. */
async function audienceReport(page: Page): Promise<string> {
  await page.goto('/tools/campaign-audience-builder');
  await recentCampaigns(page).first().click();
  const campaignId = await page.getByRole('textbox', { name: 'Campaign ID' }).inputValue();
  return `/tools/campaign-audience-builder/report?${new URLSearchParams({ type: 'new-prospects', campaignId })}`;
}

async function visitAll(page: Page, visits: Visit[], width: Width, found: string[]) {
  for (const visit of visits) {
    if (visit.only && visit.only !== width) continue;
    if (!visit.stay) {
      const path = typeof visit.path === 'string' ? visit.path : await visit.path(page, width, found);
      await page.goto(path);
    }
    await visit.act?.(page);
    await visit.ready(page);
    found.push(...(await audit(page, `${visit.name} (${width})`)));
    if (visit.stay) await page.keyboard.press('Escape');
  }
}

describe('Accessibility (axe-core)', () => {
  it('visits every page of the router', () => {
    const visited = new Set([...publicVisits, ...signedInVisits, ...adminVisits].map((v) => v.route));
    expect(webRoutePatterns.filter((route) => !visited.has(route))).toEqual([]);
  });

  for (const width of ['desktop', 'mobile'] as const) {
    it(`finds no serious or critical violation on any page at ${viewports[width].width} px`, async () => {
      const page = await browser.open(width);
      const found: string[] = [];
      await visitAll(page, publicVisits, width, found);
      await signInWithPopup(page, marketer, undefined, async (popup) => {
        await popup.setViewportSize(viewports[width]);
        found.push(...(await audit(popup, `provider sign-in (${width})`)));
      });
      await visitAll(page, signedInVisits, width, found);
      await signInWithPopup(page, admin);
      await visitAll(page, adminVisits, width, found);
      if (found.length > 0) console.error(`axe found:\n${found.join('\n')}`);
      expect(found).toEqual([]);
      // The 404 page answers 404, as it should; the browser logs that.
      expect(
        pageProblems(page).filter(
          (p) => !p.includes(' 404 (Not Found) (http') || !p.endsWith('/no-such-page)'),
        ),
      ).toEqual([]);
    }, 240_000);
  }
});
