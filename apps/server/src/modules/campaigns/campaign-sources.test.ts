import { campaignAssetPath } from '@gem/contracts/campaign-assets';
import { campaignActivityPath, campaignActivityResponseSchema } from '@gem/contracts/campaigns';
import {
  campaignSourcePath,
  campaignSourceSchema,
  campaignSourcesPath,
  campaignSourcesResponseSchema,
} from '@gem/contracts/campaign-sources';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { competitorPages, marketFeedItems, marketFeeds } from '../../db/schema/index';
import { useAiHarness, userOf } from '../../../test/ai-harness';
import { campaignCalls, issuesOf } from './campaigns.test-support';

/**
 * A campaign's sources through the real app on a real database: a stored Market Research item or
 * a competitor's page added with 'Use in…', refused when it is neither (400 naming the field),
 * given to the model beside the brief and listed in the asset's provenance. Who may see or
 * change them: the one walk over every campaign route (campaign-routes.walk.test.ts).
 */
const h = useAiHarness();
const { call, openCampaign } = campaignCalls(h);

const brief = {
  campaignName: 'Raport ESG 2027',
  campaignType: ['Report'],
  primaryObjective: 'Pobrania raportu przez zarządy.',
  channels: ['LinkedIn'],
};

let itemId = '';
beforeAll(async () => {
  // A feed item as the feed refresher stores it (the fixture: the refresher has its own tests).
  const { db } = h.database;
  await db.insert(marketFeeds).values({ key: 'esg', url: 'gem-sample:esg.json' }).onConflictDoNothing();
  const [row] = await db
    .insert(marketFeedItems)
    .values({
      feedKey: 'esg',
      guid: 'esg-taxonomy-2027',
      canonicalUrl: 'https://news.example.com/esg-taxonomy',
      title: 'Taksonomia UE obejmie średnie firmy od 2027 roku',
      url: 'https://news.example.com/esg-taxonomy',
      contentText: 'Od 2027 roku raportowanie ESG obejmie także średnie przedsiębiorstwa.',
      sortAt: new Date(),
      searchVector: sql`to_tsvector('simple', 'taksonomia')`,
    })
    .returning({ id: marketFeedItems.id });
  itemId = String(row!.id);
  // A page of the bundled sample corpus as the index holds it: on a fictional host, no site's.
  await db.insert(competitorPages).values({
    competitorKey: 'deloitte',
    url: 'https://deloitte.example/insights/cfo-survey-2027',
    title: 'Deloitte: CFO Survey 2027',
    sample: true,
    searchVector: sql`to_tsvector('simple', 'cfo')`,
  });
});

describe('a campaign’s sources', () => {
  it('adds a Market Research item and a competitor page, once each, and gives them to the model with the brief', async () => {
    const campaign = await openCampaign('ula', brief);
    const item = await call('POST', campaignSourcesPath(campaign.id), 'ula', {
      kind: 'market-research',
      itemId,
    });
    expect(item.statusCode, item.body).toBe(200);
    expect(campaignSourceSchema.parse(item.json())).toMatchObject({
      kind: 'market-research',
      title: 'Taksonomia UE obejmie średnie firmy od 2027 roku',
      url: 'https://news.example.com/esg-taxonomy',
      summary: 'Od 2027 roku raportowanie ESG obejmie także średnie przedsiębiorstwa.',
    });
    const again = await call('POST', campaignSourcesPath(campaign.id), 'ula', {
      kind: 'market-research',
      itemId,
    });
    expect(again.json()).toMatchObject({ id: (item.json() as { id: string }).id });

    const page = await call('POST', campaignSourcesPath(campaign.id), 'ula', {
      kind: 'competitor',
      link: 'https://www.pwc.pl/pl/raporty/esg-2027.html',
      title: 'PwC: Raport ESG 2027',
      snippet: 'Tylko co trzecia firma jest gotowa na CSRD.',
    });
    expect(page.statusCode, page.body).toBe(200);
    // A result of the sample corpus is a competitor's page too: the index holds it.
    const sample = await call('POST', campaignSourcesPath(campaign.id), 'ula', {
      kind: 'competitor',
      link: 'https://deloitte.example/insights/cfo-survey-2027',
      title: 'Deloitte: CFO Survey 2027',
      snippet: '',
    });
    expect(sample.statusCode, sample.body).toBe(200);
    await call('DELETE', campaignSourcePath(campaign.id, (sample.json() as { id: string }).id), 'ula');
    const { sources } = campaignSourcesResponseSchema.parse(
      (await call('GET', campaignSourcesPath(campaign.id), 'ula')).json(),
    );
    expect(sources.map((s) => s.kind)).toEqual(['market-research', 'competitor']);

    h.ai.enqueue({ kind: 'text', text: 'Post o raporcie ESG.' });
    await call('POST', `${campaignAssetPath(campaign.id, 'linkedin-post')}/generate`, 'ula', {});
    const prompt = userOf(h.ai.requests.at(-1));
    expect(prompt).toContain(
      '[1] Taksonomia UE obejmie średnie firmy od 2027 roku (https://news.example.com/esg-taxonomy)',
    );
    expect(prompt).toContain('[2] PwC: Raport ESG 2027 (https://www.pwc.pl/pl/raporty/esg-2027.html)');
    const asset = await call('GET', campaignAssetPath(campaign.id, 'linkedin-post'), 'ula');
    expect((asset.json() as { provenance: { sources: unknown } }).provenance.sources).toEqual([
      {
        title: 'Taksonomia UE obejmie średnie firmy od 2027 roku',
        url: 'https://news.example.com/esg-taxonomy',
      },
      { title: 'PwC: Raport ESG 2027', url: 'https://www.pwc.pl/pl/raporty/esg-2027.html' },
    ]);

    const removed = await call('DELETE', campaignSourcePath(campaign.id, sources[1]!.id), 'ula');
    expect(campaignSourcesResponseSchema.parse(removed.json()).sources).toHaveLength(1);
    const activity = campaignActivityResponseSchema.parse(
      (await call('GET', campaignActivityPath(campaign.id), 'ula')).json(),
    ).activity;
    expect(activity.filter((a) => a.action.startsWith('source-')).map((a) => [a.action, a.detail])).toEqual([
      ['source-removed', 'PwC: Raport ESG 2027'],
      ['source-removed', 'Deloitte: CFO Survey 2027'],
      ['source-added', 'Deloitte: CFO Survey 2027'],
      ['source-added', 'PwC: Raport ESG 2027'],
      ['source-added', 'Taksonomia UE obejmie średnie firmy od 2027 roku'],
    ]);
  });

  it('refuses what is not an item or a competitor result, naming the field, and keeps the sources as they were', async () => {
    const campaign = await openCampaign('vic', brief);
    const cases: [object, string, string][] = [
      [
        { kind: 'market-research', itemId: '999999' },
        'body.itemId',
        'No Market Research item has the id 999999.',
      ],
      [{ kind: 'market-research', itemId: 'abc' }, 'body.itemId', 'No Market Research item has the id abc.'],
      [
        { kind: 'competitor', link: 'https://evil.example.com/pwc.pl/pl/', title: 'X', snippet: '' },
        'body.link',
        'This link is not a page of a competitor GEM follows: add results of the competitor search.',
      ],
      [
        { kind: 'competitor', link: 'javascript:alert(1)', title: 'X', snippet: '' },
        'body.link',
        'The link must be a whole web address.',
      ],
    ];
    for (const [payload, path, message] of cases) {
      const res = await call('POST', campaignSourcesPath(campaign.id), 'vic', payload);
      expect(res.statusCode).toBe(400);
      expect((res.json() as { error: { issues: { path: string }[] } }).error.issues[0]?.path).toBe(path);
      expect(issuesOf(res)).toEqual([message]);
    }
    const unknownKind = await call('POST', campaignSourcesPath(campaign.id), 'vic', {
      kind: 'tweet',
      itemId,
    });
    expect(unknownKind.statusCode).toBe(400);
    const { sources } = campaignSourcesResponseSchema.parse(
      (await call('GET', campaignSourcesPath(campaign.id), 'vic')).json(),
    );
    expect(sources).toEqual([]);
  });
});
