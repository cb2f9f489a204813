import { htmlPage } from '@gem/test-servers/site-host';
import { describe, expect, it } from 'vitest';
import { isUnderSite, pageKey } from './crawl-urls';
import { extractPage } from './page-facts';
import { decodeHtml } from './decode-html';

const url = 'https://firma.example/pl/insights/raport/';

describe('reading a page', () => {
  it('takes the title, description, canonical URL, feeds, links and the main text without navigation', () => {
    const facts = extractPage(
      htmlPage({
        title: 'Raport o rynku',
        description: 'Krótki opis',
        canonical: '/pl/insights/raport/',
        links: ['/pl/kontakt/', 'mailto:biuro@firma.example', '#top'],
        feeds: ['/pl/feed.xml'],
        paragraphs: ['Pierwszy akapit raportu o rynku doradczym w Polsce. '.repeat(5), 'Drugi akapit.'],
      }),
      url,
    );
    expect(facts).toMatchObject({
      title: 'Raport o rynku | Fikcyjna Firma Doradcza',
      description: 'Krótki opis',
      canonical: 'https://firma.example/pl/insights/raport/',
      feeds: ['https://firma.example/pl/feed.xml'],
      noindex: false,
    });
    expect(facts.links).toEqual(['https://firma.example/pl/', 'https://firma.example/pl/kontakt/', url]);
    expect(facts.bodyText).toContain('Pierwszy akapit raportu');
    expect(facts.bodyText).toContain('Drugi akapit.');
    expect(facts.bodyText).not.toContain('Polityka prywatności');
  });

  it('dates a page by article metadata, else by JSON-LD datePublished', () => {
    const both = htmlPage({ title: 'A', publishedTime: '2026-03-01T10:00:00Z', jsonLdDate: '2025-01-01' });
    expect(extractPage(both, url).publishedAt).toBe('2026-03-01T10:00:00.000Z');
    const ld = htmlPage({ title: 'B', jsonLdDate: '2026-02-03T09:00:00+01:00' });
    expect(extractPage(ld, url).publishedAt).toBe('2026-02-03T08:00:00.000Z');
    const graph = `<html><head><script type="application/ld+json">{"@graph":[{"@type":"WebPage"},{"@type":"NewsArticle","datePublished":"2026-01-05"}]}</script></head><body><p>x</p></body></html>`;
    expect(extractPage(graph, url).publishedAt).toBe('2026-01-05T00:00:00.000Z');
    expect(extractPage(htmlPage({ title: 'C', jsonLdDate: '3026-01-01' }), url).publishedAt).toBeNull();
  });

  it('reads noindex and nofollow from <meta name=robots> and GEM’s own agent', () => {
    expect(extractPage(htmlPage({ title: 'A', robots: 'noindex, follow' }), url)).toMatchObject({
      noindex: true,
      nofollow: false,
    });
    expect(extractPage(htmlPage({ title: 'A', robots: 'none' }), url)).toMatchObject({
      noindex: true,
      nofollow: true,
    });
    const agent = '<html><head><meta name="gem-crawler" content="noindex"></head><body>x</body></html>';
    expect(extractPage(agent, url).noindex).toBe(true);
    const other = '<html><head><meta name="otherbot" content="noindex"></head><body>x</body></html>';
    expect(extractPage(other, url).noindex).toBe(false);
  });

  it('reads a page Readability gives up on, and deep nesting, without failing', () => {
    const deep = `<html><body>${'<div>'.repeat(20_000)}tekst${'</div>'.repeat(20_000)}</body></html>`;
    expect(extractPage(deep, url).bodyText).toContain('tekst');
  });

  it('decodes by the Content-Type charset, else the page’s <meta charset>', () => {
    const latin2 = Buffer.concat([
      Buffer.from('<html><head><meta charset="iso-8859-2"></head><body>'),
      Buffer.from([0xb1, 0xe6, 0xea]), // ąćę
      Buffer.from('</body></html>'),
    ]);
    expect(decodeHtml(latin2, 'text/html')).toContain('ąćę');
    expect(decodeHtml(Buffer.from('zażółć'), 'text/html; charset=utf-8')).toBe('zażółć');
  });
});

describe('page keys', () => {
  it('drops the fragment and tracking parameters, and keeps the rest', () => {
    expect(pageKey('https://f.example/pl/a?utm_source=x&gclid=1&fbclid=2&id=7&UTM_Medium=y#part')).toBe(
      'https://f.example/pl/a?id=7',
    );
    expect(pageKey('https://f.example/pl/a?msclkid=1&_ga=2&mc_cid=3')).toBe('https://f.example/pl/a');
    expect(pageKey('javascript:alert(1)')).toBeUndefined();
    expect(pageKey('https://user:pw@f.example/pl/')).toBeUndefined();
  });

  it('tells whether a page is under the site path', () => {
    const site = 'https://f.example/pl/';
    expect(isUnderSite('https://f.example/pl/a/', site)).toBe(true);
    expect(isUnderSite('https://f.example/pl', site)).toBe(true);
    expect(isUnderSite('https://f.example/plx/', site)).toBe(false);
    expect(isUnderSite('https://f.example/en/a/', site)).toBe(false);
    expect(isUnderSite('http://f.example/pl/a/', site)).toBe(false);
  });
});
