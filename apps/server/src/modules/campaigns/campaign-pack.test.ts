import { campaignAssetPath } from '@gem/contracts/campaign-assets';
import { campaignAudiencePath } from '@gem/contracts/campaign-audience';
import {
  campaignAudienceBuilderPaths,
  campaignsResponseSchema as crmCampaignsResponseSchema,
} from '@gem/contracts/campaign-audience-builder';
import type { CampaignChannelId } from '@gem/contracts/campaign-channels';
import { campaignPackPath, campaignPackSchema, type CampaignPack } from '@gem/contracts/campaign-pack';
import {
  campaignActivityPath,
  campaignActivityResponseSchema,
  campaignBriefPath,
  campaignEditorsPath,
  campaignPath,
} from '@gem/contracts/campaigns';
import { campaignSourcesPath } from '@gem/contracts/campaign-sources';
import { describe, expect, it } from 'vitest';
import { useAiHarness } from '../../../test/ai-harness';
import { campaignCalls, issuesOf } from './campaigns.test-support';

/**
 * The campaign pack through the real app on a real database: the approved assets only (at the
 * version approved), their links tagged with the channel's UTM parameters and listed, those
 * tagged already left alone; the brief's latest version, the QR code's target, the sources;
 * read by the owner and a reader of a shared campaign alike, a 404 to anyone else, and nothing of
 * another campaign in it.
 */
const h = useAiHarness();
const { call, openCampaign } = campaignCalls(h);

const webinar = {
  campaignName: 'CFO Webinar 2027',
  campaignType: ['Webinar'],
  primaryObjective: 'Win 40 qualified leads among CFOs of mid-size manufacturers.',
  targetAudience: 'CFOs of mid-size manufacturers',
  keyMessages: 'Cash flow visibility pays for itself.',
  channels: ['LinkedIn', 'Email', 'Twitter / X'],
};

/** The channel's asset generated, then saved by hand as `text` (version 2), with `status`. */
async function assetWith(
  user: string,
  campaignId: string,
  channel: CampaignChannelId,
  text: string,
  status: 'draft' | 'in-review' | 'approved',
) {
  h.ai.enqueue({ kind: 'text', text: `Wygenerowany tekst: ${channel}.` });
  const generated = await call('POST', `${campaignAssetPath(campaignId, channel)}/generate`, user, {});
  expect(generated.statusCode, generated.body).toBe(200);
  const saved = await call('PUT', campaignAssetPath(campaignId, channel), user, { text, baseVersion: 1 });
  expect(saved.statusCode, saved.body).toBe(200);
  if (status !== 'draft') {
    const moved = await call('PATCH', campaignAssetPath(campaignId, channel), user, { status });
    expect(moved.statusCode, moved.body).toBe(200);
  }
}

async function packOf(user: string, campaignId: string): Promise<CampaignPack> {
  const res = await call('GET', campaignPackPath(campaignId), user);
  expect(res.statusCode, res.body).toBe(200);
  return campaignPackSchema.parse(res.json());
}

const tagged = (url: string, source: string, medium: string) =>
  `${url}${url.includes('?') ? '&' : '?'}utm_source=${source}&utm_medium=${medium}&utm_campaign=cfo-webinar-2027`;

describe('the campaign pack', () => {
  it('hands over the approved assets only, their links tagged and listed, with the brief, the QR target and the sources', async () => {
    const campaign = await openCampaign('ada', webinar);
    const post = [
      'Dołącz do webinaru: https://gem.example/webinar.',
      'Agenda: [zobacz](https://gem.example/agenda?lang=pl#dzien-1), znowu https://gem.example/webinar',
      'Partner: https://partner.example/cfo?utm_source=partner&utm_medium=referral',
      'Pytania: mailto:cfo@gem.example',
    ].join('\n');
    await assetWith('ada', campaign.id, 'linkedin-post', post, 'approved');
    await assetWith(
      'ada',
      campaign.id,
      'email-teaser',
      'Szkic teasera: https://gem.example/szkic',
      'in-review',
    );
    // Approved, then edited: a draft again, so out of the pack.
    await assetWith('ada', campaign.id, 'x-post', 'Post X zatwierdzony.', 'approved');
    const edited = await call('PUT', campaignAssetPath(campaign.id, 'x-post'), 'ada', {
      text: 'Post X po zmianie.',
      baseVersion: 2,
    });
    expect(edited.json()).toMatchObject({ status: 'draft', version: 3 });
    // A save on an older version of the approved post is kept beside it, not approved with it.
    const stale = await call('PUT', campaignAssetPath(campaign.id, 'linkedin-post'), 'ada', {
      text: 'Tekst z konfliktu.',
      baseVersion: 1,
    });
    expect(stale.statusCode).toBe(409);

    const briefSaved = await call('PUT', campaignBriefPath(campaign.id), 'ada', {
      brief: { ...campaign.brief, keyMessages: 'Cash flow visibility pays for itself within a year.' },
      baseVersion: 1,
    });
    expect(briefSaved.statusCode, briefSaved.body).toBe(200);

    let pack = await packOf('ada', campaign.id);
    expect(pack.campaign).toEqual({
      id: campaign.id,
      name: 'CFO Webinar 2027',
      status: 'planning',
      owner: campaign.owner,
      landingUrl: null,
      crmCampaignId: null,
      utmCampaign: 'cfo-webinar-2027',
    });
    expect(pack.brief.version).toBe(2);
    expect(pack.brief.data.keyMessages).toBe('Cash flow visibility pays for itself within a year.');
    expect(pack.qrTarget).toBeNull();
    expect(pack.sources).toEqual([]);

    expect(pack.assets.map((a) => a.channel)).toEqual(['linkedin-post']);
    const [asset] = pack.assets;
    const webinarLink = tagged('https://gem.example/webinar', 'linkedin', 'social');
    expect(asset).toMatchObject({
      label: 'LinkedIn post',
      version: 2,
      savedBy: campaign.owner,
      utm: { source: 'linkedin', medium: 'social' },
    });
    expect(asset?.text).toBe(
      [
        `Dołącz do webinaru: ${webinarLink}.`,
        `Agenda: [zobacz](https://gem.example/agenda?lang=pl&utm_source=linkedin&utm_medium=social&utm_campaign=cfo-webinar-2027#dzien-1), znowu ${webinarLink}`,
        'Partner: https://partner.example/cfo?utm_source=partner&utm_medium=referral',
        'Pytania: mailto:cfo@gem.example',
      ].join('\n'),
    );
    expect(asset?.links).toEqual([
      { written: 'https://gem.example/webinar', tagged: webinarLink },
      {
        written: 'https://gem.example/agenda?lang=pl#dzien-1',
        tagged:
          'https://gem.example/agenda?lang=pl&utm_source=linkedin&utm_medium=social&utm_campaign=cfo-webinar-2027#dzien-1',
      },
      {
        written: 'https://partner.example/cfo?utm_source=partner&utm_medium=referral',
        tagged: 'https://partner.example/cfo?utm_source=partner&utm_medium=referral',
      },
    ]);
    // The hand-edited text says what it was edited from: the generation of version 1.
    expect(asset?.provenance).toMatchObject({ briefVersion: 1, tool: 'social-media-post' });

    const body = (await call('GET', campaignPackPath(campaign.id), 'ada')).body;
    for (const unapproved of [
      'Szkic teasera',
      'gem.example/szkic',
      'Post X',
      'Tekst z konfliktu.',
      'Wygenerowany tekst',
    ]) {
      expect(body).not.toContain(unapproved);
    }

    // The landing page and a source, then the pack again.
    expect(
      (await call('PATCH', campaignPath(campaign.id), 'ada', { landingUrl: 'https://gem.example/webinar' }))
        .statusCode,
    ).toBe(200);
    const source = await call('POST', campaignSourcesPath(campaign.id), 'ada', {
      kind: 'competitor',
      link: 'https://www.pwc.pl/pl/raporty/cfo-2027.html',
      title: 'PwC: CFO 2027',
      snippet: 'Co drugi dyrektor finansowy planuje inwestycje w automatyzację.',
    });
    expect(source.statusCode, source.body).toBe(200);
    pack = await packOf('ada', campaign.id);
    expect(pack.qrTarget).toBe(tagged('https://gem.example/webinar', 'qr', 'print'));
    expect(pack.campaign.landingUrl).toBe('https://gem.example/webinar');
    expect(pack.sources).toEqual([
      expect.objectContaining({
        kind: 'competitor',
        title: 'PwC: CFO 2027',
        url: 'https://www.pwc.pl/pl/raporty/cfo-2027.html',
        addedBy: campaign.owner,
      }),
    ]);
  });

  it('is read by an editor and by a reader of a campaign shared with the team, is a 404 to anyone else, and holds nothing of another campaign', async () => {
    const campaign = await openCampaign('oli', { ...webinar, campaignName: 'Oli: webinar' });
    await assetWith('oli', campaign.id, 'article', 'Artykuł Olego: https://gem.example/oli', 'approved');
    const other = await openCampaign('sam', { ...webinar, campaignName: 'Sam: webinar' });
    await assetWith('sam', other.id, 'article', 'Artykuł Sama: https://gem.example/sam', 'approved');
    await call('POST', campaignSourcesPath(other.id), 'sam', {
      kind: 'competitor',
      link: 'https://www.pwc.pl/pl/raporty/sam.html',
      title: 'Źródło Sama',
      snippet: '',
    });

    const stranger = await call('GET', campaignPackPath(campaign.id), 'sam');
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toMatchObject({ error: { code: 'not_found', message: 'Campaign not found.' } });
    expect(stranger.body).not.toContain('Artykuł Olego');
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      expect((await call('GET', campaignPackPath(id), 'oli')).statusCode).toBe(404);
    }

    const owners = (await call('GET', campaignPackPath(campaign.id), 'oli')).body;
    expect(owners).toContain('Artykuł Olego');
    for (const theirs of ['Sam', 'gem.example/sam', 'Źródło Sama']) expect(owners).not.toContain(theirs);

    await call('GET', campaignPath(campaign.id), 'eve'); // signs in once
    const added = await call('POST', campaignEditorsPath(campaign.id), 'oli', { email: 'eve@gem.example' });
    expect(added.statusCode, added.body).toBe(200);
    expect((await packOf('eve', campaign.id)).assets.map((a) => a.channel)).toEqual(['article']);

    expect((await call('PATCH', campaignPath(campaign.id), 'oli', { sharing: 'team' })).statusCode).toBe(200);
    const { madeAt: _reader, ...asReader } = await packOf('sam', campaign.id);
    const { madeAt: _owner, ...asOwner } = await packOf('oli', campaign.id);
    expect(asReader).toEqual(asOwner);
    expect(asReader.assets.map((a) => [a.channel, a.text])).toEqual([
      [
        'article',
        'Artykuł Olego: https://gem.example/oli?utm_source=website&utm_medium=content&utm_campaign=oli-webinar',
      ],
    ]);
  });

  it('tags each asset’s links with its UTM tags as edited, keeps the QR code’s settings, and hands over where each saved segment’s contacts are read as CSV', async () => {
    const campaign = await openCampaign('uma', { ...webinar, campaignName: 'Uma: CFO forum' });
    await assetWith('uma', campaign.id, 'linkedin-post', 'Zapisy: https://gem.example/forum', 'approved');
    await assetWith('uma', campaign.id, 'email-teaser', 'Teaser: https://gem.example/forum', 'approved');

    // The post's tags edited; the teaser keeps its channel's own.
    const utm = { source: 'linkedin-company-page', medium: 'organic_social', content: 'cfo+variant-b' };
    const edited = await call('PATCH', campaignAssetPath(campaign.id, 'linkedin-post'), 'uma', { utm });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ status: 'approved', utm: { ...utm, edited: true } });
    // Wrong tags are refused by field, and nothing changes.
    const refused = await call('PATCH', campaignAssetPath(campaign.id, 'linkedin-post'), 'uma', {
      utm: { source: 'linked in', medium: '', content: null },
    });
    expect(refused.statusCode).toBe(400);
    expect(issuesOf(refused)).toEqual([
      'The UTM source takes letters, digits and . _ + - only, starting with a letter or a digit (no spaces).',
      'The UTM medium is empty.',
    ]);

    // The QR code's settings, checked against the QR generator's ranges.
    const tooFine = await call('PATCH', campaignPath(campaign.id), 'uma', {
      qr: { size: 240, padding: 16, dpi: 1200 },
    });
    expect(tooFine.statusCode).toBe(400);
    expect(issuesOf(tooFine)).toEqual(['The resolution must be at most 600 DPI.']);
    const qr = await call('PATCH', campaignPath(campaign.id), 'uma', {
      landingUrl: 'https://gem.example/forum',
      qr: { size: 240, padding: 16, dpi: 600 },
    });
    expect(qr.statusCode, qr.body).toBe(200);
    expect(qr.json()).toMatchObject({ qr: { size: 240, padding: 16, dpi: 600 } });

    // A segment saved to the campaign.
    const crm = await call('GET', `${campaignAudienceBuilderPaths.campaigns}?q=`, 'uma');
    const [crmCampaign] = crmCampaignsResponseSchema.parse(crm.json()).campaigns;
    const segment = {
      subIndustries: [],
      roles: [],
      titles: [],
      workAreas: [],
      employeeBands: [],
      revenueBands: [],
    };
    const saved = await call('POST', campaignAudiencePath(campaign.id), 'uma', {
      label: 'Everyone of the last forum',
      report: { type: 'follow-up', campaignId: crmCampaign!.id, segment, pastCampaignIds: [] },
      reportUrl: null,
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const pack = await packOf('uma', campaign.id);
    const slug = 'utm_campaign=uma-cfo-forum';
    expect(pack.assets.map((a) => [a.channel, a.utm, a.text])).toEqual([
      [
        'linkedin-post',
        utm,
        `Zapisy: https://gem.example/forum?utm_source=linkedin-company-page&utm_medium=organic_social&${slug}&utm_content=cfo%2Bvariant-b`,
      ],
      [
        'email-teaser',
        { source: 'newsletter', medium: 'email', content: null },
        `Teaser: https://gem.example/forum?utm_source=newsletter&utm_medium=email&${slug}`,
      ],
    ]);
    expect(pack.qr).toEqual({ size: 240, padding: 16, dpi: 600 });
    expect(pack.qrTarget).toBe(`https://gem.example/forum?utm_source=qr&utm_medium=print&${slug}`);
    expect(pack.audience).toEqual([
      {
        label: 'Everyone of the last forum',
        csvPath: `${campaignAudienceBuilderPaths.reportCsv}?type=follow-up&campaignId=${crmCampaign!.id}`,
        reportUrl: null,
      },
    ]);
    // The path is the audience builder's export, which answers a CSV of the segment's contacts.
    const csv = await call('GET', pack.audience[0]!.csvPath!, 'uma');
    expect(csv.statusCode, csv.body.slice(0, 200)).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toMatch(/^Contact ID,Name,E-mail,/);
    expect(lines.length).toBeGreaterThan(1);

    // Back to the channel's own tags and the QR defaults: both recorded.
    const reset = await call('PATCH', campaignAssetPath(campaign.id, 'linkedin-post'), 'uma', { utm: null });
    expect(reset.json()).toMatchObject({
      utm: { source: 'linkedin', medium: 'social', content: null, edited: false },
    });
    const defaults = await call('PATCH', campaignPath(campaign.id), 'uma', { qr: null });
    expect(defaults.json()).toMatchObject({ qr: null });
    const activity = campaignActivityResponseSchema.parse(
      (await call('GET', campaignActivityPath(campaign.id), 'uma')).json(),
    ).activity;
    expect(
      activity
        .filter((a) => a.action === 'asset-utm-set' || a.action === 'qr-code-set')
        .map((a) => a.detail)
        .reverse(),
    ).toEqual([
      'LinkedIn post: utm_source=linkedin-company-page, utm_medium=organic_social, utm_content=cfo+variant-b',
      '240 pt, padding 16 pt, 600 DPI',
      'LinkedIn post: utm_source=linkedin, utm_medium=social (the channel’s own)',
      'Back to the defaults',
    ]);
  });
});
