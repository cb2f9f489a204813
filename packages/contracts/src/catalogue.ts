/**
 * The tool and market catalogue (spec §2 "Tools menu", "Market areas", §3 Tool, Market area).
 * Defined once here; the web app renders it and the server serves and checks against it.
 * Order matters: it is the order the spec lists and the order screens show.
 */

export type Tool = {
  slug: ToolSlug;
  name: string;
  /** One line for the tools menu. */
  summary: string;
  /** Path of the tool's illustration, served by the web app. */
  photo: string;
  /** Only the QR code generator can be used without signing in. */
  authRequired: boolean;
};

export const toolSlugs = [
  'social-media-post',
  'teaser-generator',
  'competitor-search',
  'qr-code-generator',
  'paid-ads',
  'article',
  'visual-brand-checker',
  'brief-creator',
  'marketing-converter',
  'campaign-audience-builder',
  'brand-voice',
] as const;
export type ToolSlug = (typeof toolSlugs)[number];

const tool = (slug: ToolSlug, name: string, summary: string, authRequired = true): Tool => ({
  slug,
  name,
  summary,
  photo: `/images/tools/${slug}.svg`,
  authRequired,
});

export const tools: readonly Tool[] = [
  tool('social-media-post', 'Social media post', 'Summarise a document and turn it into a post.'),
  tool('teaser-generator', 'Teaser generator', 'Short teasers that make people click.'),
  tool('competitor-search', 'Competitor search', 'Find what competitors published, and when.'),
  tool('qr-code-generator', 'QR code generator', 'Print-ready QR codes as PNG or SVG.', false),
  tool('paid-ads', 'Paid ads', 'Ad copy within the 600-character limit.'),
  tool('article', 'Article', 'A short article from your base content.'),
  tool('visual-brand-checker', 'Visual brand checker', 'Check a visual against the brand rules.'),
  tool('brief-creator', 'Brief creator', 'Build a marketing brief in a chat.'),
  tool('marketing-converter', 'Marketing converter', 'Turn WebVTT captions into SRT subtitles.'),
  tool('campaign-audience-builder', 'Campaign audience builder', 'Segments and reports from the CRM.'),
  // Issue 31: the brand voice's 'Check text' page, beside the spec's ten tools.
  tool('brand-voice', 'Check text', 'Check any text against the brand voice and style guide.'),
];

export const freeTools: readonly Tool[] = tools.filter((t) => !t.authRequired);

export function findTool(slug: string): Tool | undefined {
  return tools.find((t) => t.slug === slug);
}

export type MarketSubArea = {
  slug: string;
  name: string;
};

export type MarketArea = {
  slug: string;
  name: string;
  /** One line for the market research list. */
  summary: string;
  photo: string;
  /** Sub-areas, e.g. the priority clients. Empty when the area has none. */
  children: readonly MarketSubArea[];
};

const area = (
  slug: string,
  name: string,
  summary: string,
  children: readonly MarketSubArea[] = [],
): MarketArea => ({ slug, name, summary, photo: `/images/markets/${slug}.svg`, children });

const sub = (slug: string, name: string): MarketSubArea => ({ slug, name });

export const marketAreas: readonly MarketArea[] = [
  area('pwc', 'PwC', 'What the PwC network shares on its social channels.'),
  area('priority-clients', 'Priority clients', 'News on the clients that matter most.', [
    sub('citi', 'Citi'),
    sub('ergo-hestia', 'ERGO Hestia'),
    sub('ing', 'ING'),
    sub('mcdonalds', "McDonald's"),
    sub('mbank', 'mBank'),
    sub('mid-europa-partners', 'Mid Europa Partners'),
    sub('orange', 'Orange'),
    sub('orlen', 'Orlen'),
    sub('pko-bp', 'PKO BP'),
    sub('polpharma', 'Polpharma'),
    sub('stock-spirits', 'Stock Spirits'),
    sub('volkswagen', 'Volkswagen'),
    sub('zabka', 'Żabka'),
  ]),
  area('competitors', 'Competitors', 'What other advisory firms are saying.'),
  area('polish_business', 'Polish business', 'The Polish economy and its companies.'),
  area('technology', 'Technology', 'AI, cloud, cyber and the digital economy.'),
  area('esg', 'ESG', 'Climate, sustainability reporting and governance.'),
  area('financial_sector', 'Financial sector', 'Banks, insurers and capital markets.'),
  area('retail_consumer', 'Retail & consumer', 'Shoppers, brands and retail chains.'),
  area('leadership', 'Leadership', 'Boards, CEOs and the future of work.'),
  area('real_estate', 'Real estate', 'Property, construction and investment.'),
  area('pharma', 'Pharma', 'Pharmaceuticals, health care and life sciences.'),
];

export function findMarketArea(slug: string): MarketArea | undefined {
  return marketAreas.find((a) => a.slug === slug);
}
