import { describe, expect, it } from 'vitest';
import { campaignSlug, findLinks, tagLinks, withUtm, type UtmTags } from './campaign-links';

const tags: UtmTags = { source: 'linkedin', medium: 'social', campaign: 'cfo-webinar-2027' };

describe('campaignSlug', () => {
  it('is the name in lower case without accents, one hyphen for each run of anything else', () => {
    expect(campaignSlug('CFO Webinar 2027')).toBe('cfo-webinar-2027');
    expect(campaignSlug('Raport ESG dla zarządów — edycja „Łódź”')).toBe(
      'raport-esg-dla-zarzadow-edycja-lodz',
    );
    expect(campaignSlug('  --Straße & Œuvre!!  ')).toBe('strasse-oeuvre');
    expect(campaignSlug('🚀🚀')).toBe('campaign');
    expect(campaignSlug('')).toBe('campaign');
  });

  it('cuts a long name at a word', () => {
    const slug = campaignSlug('Transformacja cyfrowa w finansach '.repeat(5));
    expect(slug.length).toBeLessThanOrEqual(60);
    expect(slug.endsWith('-')).toBe(false);
    expect('transformacja-cyfrowa-w-finansach-'.repeat(5).startsWith(slug)).toBe(true);
  });
});

describe('withUtm', () => {
  it('adds source, medium and campaign after the link’s own parameters and before its fragment', () => {
    expect(withUtm('https://gem.example/webinar', tags)).toBe(
      'https://gem.example/webinar?utm_source=linkedin&utm_medium=social&utm_campaign=cfo-webinar-2027',
    );
    expect(withUtm('https://gem.example/w?lang=pl#zapisy', { ...tags, content: 'post-1' })).toBe(
      'https://gem.example/w?lang=pl&utm_source=linkedin&utm_medium=social&utm_campaign=cfo-webinar-2027&utm_content=post-1#zapisy',
    );
  });

  it('leaves a link with any UTM parameter, a non-http link and a non-link as they are', () => {
    for (const link of [
      'https://gem.example/w?utm_source=newsletter',
      'https://gem.example/w?UTM_Campaign=x',
      'mailto:events@gem.example',
      'ftp://gem.example/file',
      'not a link',
    ]) {
      expect(withUtm(link, tags)).toBe(link);
    }
  });
});

describe('findLinks and tagLinks', () => {
  it('finds bare links and Markdown targets, without the sentence’s punctuation', () => {
    const text =
      'Zapisz się: https://gem.example/webinar. Więcej [w raporcie](https://gem.example/raport?rok=2027), ' +
      'a także (https://gem.example/faq)! Nie: xhttps://evil.example, mailto:a@b.pl';
    expect(findLinks(text).map((l) => l.url)).toEqual([
      'https://gem.example/webinar',
      'https://gem.example/raport?rok=2027',
      'https://gem.example/faq',
    ]);
    expect(tagLinks(text, tags)).toBe(
      'Zapisz się: https://gem.example/webinar?utm_source=linkedin&utm_medium=social&utm_campaign=cfo-webinar-2027. ' +
        'Więcej [w raporcie](https://gem.example/raport?rok=2027&utm_source=linkedin&utm_medium=social&utm_campaign=cfo-webinar-2027), ' +
        'a także (https://gem.example/faq?utm_source=linkedin&utm_medium=social&utm_campaign=cfo-webinar-2027)! ' +
        'Nie: xhttps://evil.example, mailto:a@b.pl',
    );
  });

  it('keeps links already tagged and text without links as they are, and tags each link once', () => {
    const tagged = 'Link: https://gem.example/?utm_source=x and http://gem.example/b';
    expect(tagLinks(tagged, tags)).toBe(
      'Link: https://gem.example/?utm_source=x and http://gem.example/b?utm_source=linkedin&utm_medium=social&utm_campaign=cfo-webinar-2027',
    );
    expect(tagLinks(tagLinks(tagged, tags), tags)).toBe(tagLinks(tagged, tags));
    expect(tagLinks('Bez linków, tylko http i https.', tags)).toBe('Bez linków, tylko http i https.');
  });

  it('reads a long hostile text in one pass', () => {
    // 'http' glued to letters is never a link; the 'https://' runs after the first read as one.
    const hostile = 'http'.repeat(50_000) + 'https://'.repeat(10_000);
    const found = findLinks(hostile);
    expect(found).toHaveLength(1);
    expect(found[0]!.start).toBe(200_000 + 8);
  });
});
