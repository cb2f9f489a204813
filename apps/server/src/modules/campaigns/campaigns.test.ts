import {
  campaignActivityPath,
  campaignEditorPath,
  campaignEditorsPath,
  campaignActivityResponseSchema,
  campaignBriefPath,
  campaignBriefVersionsResponseSchema,
  campaignDuplicatePath,
  campaignPath,
  campaignSchema,
  campaignsPaths,
  campaignsResponseSchema,
} from '@gem/contracts/campaigns';
import {
  campaignAudienceBuilderPaths,
  campaignsResponseSchema as crmCampaignsResponseSchema,
} from '@gem/contracts/campaign-audience-builder';
import { describe, expect, it } from 'vitest';
import { useAiHarness } from '../../../test/ai-harness';
import { campaignCalls, issuesOf } from './campaigns.test-support';

/**
 * Campaigns through the real app (buildTestApp) on a real database: opened from a finished brief
 * accepted in the brief creator, listed and filtered, the brief saved in versions with a 409 for
 * a stale one, and who may see and change a campaign, walked as its owner, as another user and as
 * a reader of a campaign shared with the team.
 */
const h = useAiHarness();
const { call, finishedBrief, openCampaign } = campaignCalls(h);

const webinar = {
  campaignName: 'CFO Webinar 2027',
  campaignType: ['Webinar'],
  primaryObjective: 'Win 40 qualified leads among CFOs of mid-size manufacturers.',
  keyMessages: 'Cash flow visibility pays for itself.',
  channels: ['LinkedIn', 'Email'],
};
const report = {
  campaignName: 'Raport ESG dla zarządów',
  campaignType: ['Report'],
  primaryObjective: 'Pobrania raportu przez członków zarządów.',
  channels: ['Email'],
};

const listOf = async (user: string, query = '') => {
  const res = await call('GET', `${campaignsPaths.campaigns}${query}`, user);
  expect(res.statusCode, res.body).toBe(200);
  return campaignsResponseSchema.parse(res.json()).campaigns;
};

describe('opening a campaign from a finished brief', () => {
  it('takes the brief as version 1 and its name, and opening it again finds the same campaign', async () => {
    const briefId = await finishedBrief('olga', webinar);
    const first = await call('POST', campaignsPaths.campaigns, 'olga', { finishedBriefId: briefId });
    expect(first.statusCode, first.body).toBe(201);
    const campaign = campaignSchema.parse(first.json());
    expect(campaign).toMatchObject({
      name: 'CFO Webinar 2027',
      status: 'planning',
      sharing: 'private',
      role: 'owner',
      briefVersion: 1,
      finishedBriefId: briefId,
      campaignType: ['Webinar'],
      channels: ['LinkedIn', 'Email'],
      editors: [],
    });
    expect(campaign.brief.keyMessages).toBe('Cash flow visibility pays for itself.');

    const again = await call('POST', campaignsPaths.campaigns, 'olga', { finishedBriefId: briefId });
    expect(again.statusCode).toBe(200);
    expect(campaignSchema.parse(again.json()).id).toBe(campaign.id);
    expect((await listOf('olga')).map((c) => c.id)).toEqual([campaign.id]);

    const activity = campaignActivityResponseSchema.parse(
      (await call('GET', campaignActivityPath(campaign.id), 'olga')).json(),
    );
    expect(activity.activity.map((a) => [a.action, a.detail])).toEqual([
      ['created', 'From the finished brief “CFO Webinar 2027”'],
    ]);
  });

  it("refuses someone else's brief, a brief that does not exist and an id that is not one, naming the field", async () => {
    const briefId = await finishedBrief('piotr', report);
    const stranger = await call('POST', campaignsPaths.campaigns, 'marta', { finishedBriefId: briefId });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().error.message).toBe('Brief not found.');
    const none = await call('POST', campaignsPaths.campaigns, 'marta', {
      finishedBriefId: '00000000-0000-4000-8000-000000000000',
    });
    expect(none.statusCode).toBe(404);
    const bad = await call('POST', campaignsPaths.campaigns, 'marta', { finishedBriefId: 'brief-1' });
    expect(bad.statusCode).toBe(400);
    expect(issuesOf(bad)).toContain('Choose a finished brief.');
    expect(await listOf('marta')).toEqual([]);
  });
});

describe('the list', () => {
  it('finds campaigns by name (accents and case folded), status, owner and campaign type', async () => {
    const own = await openCampaign('lena', report);
    const second = await openCampaign('lena', webinar);
    const theirs = await openCampaign('kuba', { ...webinar, campaignName: 'Kuba’s webinar' });
    await call('PATCH', campaignPath(theirs.id), 'kuba', { sharing: 'team' });
    await call('PATCH', campaignPath(second.id), 'lena', { status: 'active' });

    // Lena sees her own two and Kuba's shared one, most recently changed first.
    const all = await listOf('lena');
    expect(all.map((c) => c.name)).toEqual(['CFO Webinar 2027', 'Kuba’s webinar', 'Raport ESG dla zarządów']);
    expect(all.find((c) => c.id === theirs.id)).toMatchObject({
      role: 'reader',
      owner: { id: theirs.owner.id },
    });
    expect((await listOf('lena', '?q=zarzadow')).map((c) => c.id)).toEqual([own.id]);
    expect((await listOf('lena', '?q=RAPORT%20esg')).map((c) => c.id)).toEqual([own.id]);
    expect((await listOf('lena', '?status=active')).map((c) => c.id)).toEqual([second.id]);
    expect((await listOf('lena', '?owner=others')).map((c) => c.id)).toEqual([theirs.id]);
    expect((await listOf('lena', '?owner=me')).map((c) => c.id).sort()).toEqual([own.id, second.id].sort());
    expect((await listOf('lena', '?campaignType=Report')).map((c) => c.id)).toEqual([own.id]);
    const badStatus = await call('GET', `${campaignsPaths.campaigns}?status=done`, 'lena');
    expect(badStatus.statusCode).toBe(400);
    expect(issuesOf(badStatus)).toContain('Choose a status from the list.');
  });
});

describe('the brief in versions', () => {
  it('saves each change as a new version, and refuses a save made on an older one without losing the newer', async () => {
    const campaign = await openCampaign('ola', webinar);
    const changed = { ...campaign.brief, keyMessages: 'Cash visibility in one dashboard.' };
    const saved = await call('PUT', campaignBriefPath(campaign.id), 'ola', {
      brief: changed,
      baseVersion: 1,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(campaignSchema.parse(saved.json())).toMatchObject({
      briefVersion: 2,
      brief: { keyMessages: changed.keyMessages },
    });

    // A second tab still on version 1.
    const stale = await call('PUT', campaignBriefPath(campaign.id), 'ola', {
      brief: { ...campaign.brief, keyMessages: 'Something else.' },
      baseVersion: 1,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('conflict');
    expect(stale.json().error.message).toContain('Your changes are still in the form');

    const versions = campaignBriefVersionsResponseSchema.parse(
      (await call('GET', campaignBriefPath(campaign.id), 'ola')).json(),
    );
    expect(versions.versions.map((v) => [v.version, v.brief.keyMessages])).toEqual([
      [2, 'Cash visibility in one dashboard.'],
      [1, 'Cash flow visibility pays for itself.'],
    ]);
    const tooLong = await call('PUT', campaignBriefPath(campaign.id), 'ola', {
      brief: { ...changed, keyMessages: 'x'.repeat(4_001) },
      baseVersion: 2,
    });
    expect(tooLong.statusCode).toBe(400);
    expect(issuesOf(tooLong).join(' ')).toContain('Key messages is too long');
  });

  it('records renames, status moves and sharing in the activity, newest first', async () => {
    const campaign = await openCampaign('ewa', report);
    expect(
      (await call('PATCH', campaignPath(campaign.id), 'ewa', { name: 'ESG 2027', status: 'active' }))
        .statusCode,
    ).toBe(200);
    expect((await call('PATCH', campaignPath(campaign.id), 'ewa', { sharing: 'team' })).statusCode).toBe(200);
    const empty = await call('PATCH', campaignPath(campaign.id), 'ewa', {});
    expect(empty.statusCode).toBe(400);
    const activity = campaignActivityResponseSchema.parse(
      (await call('GET', campaignActivityPath(campaign.id), 'ewa')).json(),
    );
    expect(activity.activity.map((a) => a.action)).toEqual(
      expect.arrayContaining(['created', 'renamed', 'status-changed', 'sharing-changed']),
    );
    expect(activity.activity[0]).toMatchObject({
      action: 'sharing-changed',
      detail: 'Shared with the team (read only)',
    });
    expect(activity.activity.find((a) => a.action === 'status-changed')?.detail).toBe('Planning → Active');
  });
});

describe('who may see and change a campaign', () => {
  it('walks every campaign route as the owner, another user and a reader of a shared campaign', async () => {
    const campaign = await openCampaign('owner', webinar);
    const brief = { brief: campaign.brief, baseVersion: 1 };
    const routes = [
      { method: 'GET', url: campaignPath(campaign.id) },
      { method: 'PATCH', url: campaignPath(campaign.id), payload: { status: 'active' }, write: true },
      {
        method: 'PATCH',
        url: campaignPath(campaign.id),
        payload: { sharing: 'private' },
        write: true,
        owner: true,
      },
      { method: 'GET', url: campaignBriefPath(campaign.id) },
      { method: 'PUT', url: campaignBriefPath(campaign.id), payload: brief, write: true },
      { method: 'GET', url: campaignActivityPath(campaign.id) },
    ] as const;

    // Private: to anyone else it does not exist.
    for (const route of routes) {
      const res = await call(
        route.method,
        route.url,
        'outsider',
        'payload' in route ? route.payload : undefined,
      );
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(404);
      expect(res.json().error.message).toBe('Campaign not found.');
    }
    expect((await listOf('outsider')).map((c) => c.id)).not.toContain(campaign.id);

    // Shared with the team: read, never write.
    expect((await call('PATCH', campaignPath(campaign.id), 'owner', { sharing: 'team' })).statusCode).toBe(
      200,
    );
    for (const route of routes) {
      const res = await call(
        route.method,
        route.url,
        'reader',
        'payload' in route ? route.payload : undefined,
      );
      if ('write' in route) {
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(res.json().error.message).toMatch(
          /can read this campaign but not change it|Only the campaign’s owner/,
        );
      } else {
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(200);
      }
    }
    expect((await call('GET', campaignPath(campaign.id), 'reader')).json()).toMatchObject({ role: 'reader' });
    // Nothing the reader tried changed it.
    const now = campaignSchema.parse((await call('GET', campaignPath(campaign.id), 'owner')).json());
    expect(now).toMatchObject({ status: 'planning', briefVersion: 1, sharing: 'team' });

    // An editor the owner added: writes the brief and the status, but shares and adds no one.
    await call('GET', campaignsPaths.campaigns, 'editor'); // signs in once
    const unknown = await call('POST', campaignEditorsPath(campaign.id), 'owner', {
      email: 'nobody@gem.example',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe(
      'No one has signed in to GEM as nobody@gem.example yet. Ask them to sign in once, then add them.',
    );
    const byReader = await call('POST', campaignEditorsPath(campaign.id), 'reader', {
      email: 'reader@gem.example',
    });
    expect(byReader.statusCode).toBe(403);
    const added = await call('POST', campaignEditorsPath(campaign.id), 'owner', {
      email: 'EDITOR@gem.example',
    });
    expect(added.statusCode, added.body).toBe(200);
    const editor = campaignSchema.parse(added.json()).editors[0]!;
    expect(editor.name).toBe('editor');
    for (const route of routes) {
      const res = await call(
        route.method,
        route.url,
        'editor',
        'payload' in route ? route.payload : undefined,
      );
      expect(res.statusCode, `${route.method} ${route.url}`).toBe('owner' in route ? 403 : 200);
    }
    expect(
      (await call('POST', campaignEditorsPath(campaign.id), 'editor', { email: 'reader@gem.example' }))
        .statusCode,
    ).toBe(403);
    expect((await call('GET', campaignPath(campaign.id), 'editor')).json()).toMatchObject({
      role: 'editor',
      status: 'active',
      briefVersion: 2,
    });
    expect((await listOf('editor', '?owner=others')).map((c) => c.id)).toContain(campaign.id);

    // Removed, and private again: gone for the editor.
    expect((await call('DELETE', campaignEditorPath(campaign.id, editor.id), 'owner')).statusCode).toBe(200);
    expect((await call('PATCH', campaignPath(campaign.id), 'owner', { sharing: 'private' })).statusCode).toBe(
      200,
    );
    expect((await call('GET', campaignPath(campaign.id), 'editor')).statusCode).toBe(404);
    const activity = campaignActivityResponseSchema.parse(
      (await call('GET', campaignActivityPath(campaign.id), 'owner')).json(),
    );
    expect(
      activity.activity.filter((a) => a.action.startsWith('editor-')).map((a) => [a.action, a.detail]),
    ).toEqual([
      ['editor-removed', 'editor'],
      ['editor-added', 'editor'],
    ]);

    // An id that is not one is not found either, for everyone.
    expect((await call('GET', campaignPath('not-an-id'), 'owner')).statusCode).toBe(404);
  });
});

describe('the CRM campaign, the landing page and a copy', () => {
  it('checks the CRM id against the CRM and the landing page as a web address, each 400 naming what is wrong', async () => {
    const campaign = await openCampaign('maja', webinar);
    const crm = crmCampaignsResponseSchema.parse(
      (await call('GET', `${campaignAudienceBuilderPaths.campaigns}?q=`, 'maja')).json(),
    ).campaigns[0]!;
    const set = await call('PATCH', campaignPath(campaign.id), 'maja', {
      crmCampaignId: crm.id,
      landingUrl: 'https://gem.example/webinar-cfo',
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(campaignSchema.parse(set.json())).toMatchObject({
      crmCampaignId: crm.id,
      landingUrl: 'https://gem.example/webinar-cfo',
    });

    const unknown = await call('PATCH', campaignPath(campaign.id), 'maja', {
      crmCampaignId: '701000000000000AAA',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe('The CRM has no campaign with the id 701000000000000AAA.');
    const short = await call('PATCH', campaignPath(campaign.id), 'maja', { crmCampaignId: '701abc' });
    expect(short.statusCode).toBe(400);
    expect(issuesOf(short)).toEqual(['Campaign ID must be exactly 18 characters']);
    for (const landingUrl of [
      'gem.example/webinar',
      'javascript:alert(1)',
      'https://localhost',
      'https://gem .example',
    ]) {
      const bad = await call('PATCH', campaignPath(campaign.id), 'maja', { landingUrl });
      expect(bad.statusCode, landingUrl).toBe(400);
      expect(issuesOf(bad), landingUrl).toEqual([
        'The landing page must be a whole web address, such as https://www.example.com/webinar.',
      ]);
    }
    // Nothing refused changed it; null takes a value off.
    const off = await call('PATCH', campaignPath(campaign.id), 'maja', { landingUrl: null });
    expect(campaignSchema.parse(off.json())).toMatchObject({ crmCampaignId: crm.id, landingUrl: null });
    const activity = campaignActivityResponseSchema.parse(
      (await call('GET', campaignActivityPath(campaign.id), 'maja')).json(),
    );
    const lines = activity.activity.map((a) => [a.action, a.detail]);
    expect(lines[0]).toEqual(['landing-page-set', 'Taken off']);
    // Set in one change, so in either order.
    expect(lines.slice(1, 3)).toEqual(
      expect.arrayContaining([
        ['landing-page-set', 'https://gem.example/webinar-cfo'],
        ['crm-campaign-set', `${crm.name} (${crm.id})`],
      ]),
    );
  });

  it('copies a campaign the user may see as their own private one, and refuses one they may not see', async () => {
    const campaign = await openCampaign('zosia', report);
    await call('PATCH', campaignPath(campaign.id), 'zosia', {
      landingUrl: 'https://gem.example/esg',
      sharing: 'team',
    });
    const saved = await call('PUT', campaignBriefPath(campaign.id), 'zosia', {
      brief: { ...campaign.brief, keyMessages: 'ESG to przewaga.' },
      baseVersion: 1,
    });
    expect(saved.statusCode).toBe(200);

    const copied = await call('POST', campaignDuplicatePath(campaign.id), 'tomek');
    expect(copied.statusCode, copied.body).toBe(201);
    const copy = campaignSchema.parse(copied.json());
    expect(copy).toMatchObject({
      name: 'Raport ESG dla zarządów (copy)',
      role: 'owner',
      sharing: 'private',
      status: 'planning',
      briefVersion: 1,
      brief: { keyMessages: 'ESG to przewaga.' },
      landingUrl: 'https://gem.example/esg',
      duplicatedFrom: campaign.id,
      finishedBriefId: null,
      editors: [],
    });
    expect((await listOf('tomek', '?owner=me')).map((c) => c.id)).toEqual([copy.id]);
    // The copy is Tomek's alone; the original is unchanged.
    expect((await call('GET', campaignPath(copy.id), 'zosia')).statusCode).toBe(404);
    expect((await call('GET', campaignPath(campaign.id), 'zosia')).json()).toMatchObject({ briefVersion: 2 });

    await call('PATCH', campaignPath(campaign.id), 'zosia', { sharing: 'private' });
    expect((await call('POST', campaignDuplicatePath(campaign.id), 'tomek')).statusCode).toBe(404);
  });
});
