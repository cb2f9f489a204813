// The campaigns API as the local test server answers it (testing/api-server.ts), shaped and
// refused as the real server (modules/campaigns) shapes and refuses it: the list's filters, a save
// of the brief on an older version is a 409 that keeps the newer, the owner's and editors' rights.
import { emptyBriefData, type BriefData } from '@gem/contracts/brief-creator';
import {
  campaignsPaths,
  campaignStatusLabels,
  type Campaign,
  type CampaignAction,
  type CampaignActivity,
  type CampaignBriefVersion,
  type CampaignPerson,
  type CampaignSummary,
  type SaveCampaignBriefRequest,
  type UpdateCampaignRequest,
} from '@gem/contracts/campaigns';
import { beforeEach } from 'vitest';

import { json, type serveApi } from '@/testing/api-server';

export const ME: CampaignPerson = { id: '10000000-0000-4000-8000-000000000001', name: 'Marketer' };
export const COLLEAGUE: CampaignPerson = { id: '10000000-0000-4000-8000-000000000002', name: 'Ola Nowak' };
export const CAMPAIGN_ID = 'c0000000-0000-4000-8000-000000000001';

const AT = '2026-03-14T10:30:00.000Z';
let counter = 0;
const nextId = () => `c0000000-0000-4000-8000-${String(++counter + 100).padStart(12, '0')}`;

export const campaignBrief = (data: Partial<BriefData> = {}): BriefData => ({
  ...emptyBriefData(),
  campaignName: 'Spring Webinar',
  campaignType: ['Webinar'],
  primaryObjective: 'Leads from CFOs',
  channels: ['LinkedIn', 'Newsletter'],
  ...data,
});

/** A campaign as GET /api/campaigns/:id answers it; the user owns it unless told. */
export function campaign(overrides: Partial<Campaign> = {}): Campaign {
  const brief = overrides.brief ?? campaignBrief();
  return {
    id: CAMPAIGN_ID,
    name: brief.campaignName,
    campaignType: brief.campaignType,
    status: 'planning',
    sharing: 'private',
    owner: ME,
    role: 'owner',
    primaryObjective: brief.primaryObjective,
    channels: brief.channels,
    createdAt: AT,
    updatedAt: AT,
    finishedBriefId: null,
    brief,
    briefVersion: 1,
    editors: [],
    crmCampaignId: null,
    landingUrl: null,
    qr: null,
    duplicatedFrom: null,
    ...overrides,
  };
}

const summary = (c: Campaign): CampaignSummary => ({
  id: c.id,
  name: c.name,
  campaignType: c.brief.campaignType,
  status: c.status,
  sharing: c.sharing,
  owner: c.owner,
  role: c.role,
  primaryObjective: c.brief.primaryObjective,
  channels: c.brief.channels,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

const folded = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

const refusal = (
  status: number,
  code: string,
  message: string,
  issues?: { path: string; message: string }[],
) => ({
  error: { code, message, ...(issues ? { issues } : {}), requestId: 'req-test' },
});

type Server = ReturnType<typeof serveApi>;

/**
 * Installs the campaigns routes before each test. Tests put campaigns in `state.campaigns`, read
 * what was asked in `state.listQueries`, `state.patches` and `state.saves`, and stand in for a
 * colleague with `saveAsSomeoneElse`.
 */
export function fakeCampaignsApi(server: Server) {
  const state = {
    campaigns: [] as Campaign[],
    versions: {} as Record<string, CampaignBriefVersion[]>,
    activity: {} as Record<string, CampaignActivity[]>,
    /** The list refused with this status, when set. */
    listFails: null as number | null,
    /** People who have signed in to GEM, by e-mail (whom the owner may add as editors). */
    people: {} as Record<string, CampaignPerson>,
    /** CRM campaign ids the CRM knows. */
    crmCampaigns: ['701000000000000AAA'],
    listQueries: [] as URLSearchParams[],
    patches: [] as UpdateCampaignRequest[],
    saves: [] as SaveCampaignBriefRequest[],
    /** POST /api/campaigns: the finished brief ids asked for, and the campaign each one answers. */
    created: [] as string[],
    fromBrief: {} as Record<string, Campaign>,
  };

  const find = (id: string) => state.campaigns.find((c) => c.id === id);
  function record(id: string, action: CampaignAction, detail = '', actor = ME) {
    const list = (state.activity[id] ??= []);
    list.unshift({
      id: `a0000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`,
      action,
      actor,
      detail,
      at: AT,
    });
  }
  function replace(next: Campaign) {
    state.campaigns = state.campaigns.map((c) => (c.id === next.id ? next : c));
    return next;
  }
  function versionsOf(c: Campaign): CampaignBriefVersion[] {
    return (state.versions[c.id] ??= [{ version: 1, brief: c.brief, author: c.owner, createdAt: AT }]);
  }
  /** A colleague saves the brief as its next version (what a 409 is about). */
  function saveAsSomeoneElse(id: string, brief: BriefData) {
    const c = find(id)!;
    const version = c.briefVersion + 1;
    versionsOf(c).unshift({ version, brief, author: COLLEAGUE, createdAt: AT });
    replace({ ...c, brief, briefVersion: version });
    record(id, 'brief-saved', `Brief version ${version}`, COLLEAGUE);
  }

  beforeEach(() => {
    Object.assign(state, {
      campaigns: [],
      versions: {},
      activity: {},
      listFails: null,
      people: {},
      crmCampaigns: ['701000000000000AAA'],
      listQueries: [],
      patches: [],
      saves: [],
      created: [],
      fromBrief: {},
    });

    server.on('GET', campaignsPaths.campaigns, (req, _raw, res) => {
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      state.listQueries.push(query);
      if (state.listFails)
        return json(
          res,
          state.listFails,
          refusal(state.listFails, 'forbidden', 'You may not list campaigns.'),
        );
      const q = folded(query.get('q') ?? '').trim();
      const campaigns = state.campaigns.filter(
        (c) =>
          folded(c.name).includes(q) &&
          (!query.get('status') || c.status === query.get('status')) &&
          (!query.get('owner') || (query.get('owner') === 'me') === (c.role === 'owner')) &&
          (!query.get('campaignType') ||
            (c.brief.campaignType as string[]).includes(query.get('campaignType')!)),
      );
      json(res, 200, { campaigns: campaigns.map(summary) });
    });

    server.on('POST', campaignsPaths.campaigns, (_req, raw, res) => {
      const { finishedBriefId } = JSON.parse(raw) as { finishedBriefId: string };
      state.created.push(finishedBriefId);
      const made = state.fromBrief[finishedBriefId];
      if (!made) return json(res, 404, refusal(404, 'not_found', 'Brief not found.'));
      const existing = find(made.id);
      if (!existing) state.campaigns.push(made);
      json(res, existing ? 200 : 201, made);
    });

    for (const method of ['GET', 'PATCH', 'PUT', 'POST', 'DELETE']) {
      server.on(method, `${campaignsPaths.campaigns}/*`, (req, raw, res) => {
        const [id = '', part, editorId] = new URL(req.url ?? '/', 'http://x').pathname
          .split('/')
          .slice(3)
          .map(decodeURIComponent);
        const c = find(id);
        if (!c) return json(res, 404, refusal(404, 'not_found', 'No campaign with this id.'));
        const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
        const route = `${method} ${part ?? ''}`;
        const mayEdit = c.role !== 'reader';
        const forbidden = () =>
          json(res, 403, refusal(403, 'forbidden', 'Only its owner or editors may change this campaign.'));
        switch (route) {
          case 'GET ':
            return json(res, 200, c);
          case 'GET brief':
            return json(res, 200, { versions: versionsOf(c) });
          case 'GET activity':
            return json(res, 200, { activity: state.activity[id] ?? [] });
          case 'PATCH ':
            return patch(c, body as UpdateCampaignRequest, res, mayEdit, forbidden);
          case 'PUT brief': {
            if (!mayEdit) return forbidden();
            const save = body as SaveCampaignBriefRequest;
            state.saves.push(save);
            if (save.baseVersion !== c.briefVersion) {
              return json(
                res,
                409,
                refusal(
                  409,
                  'conflict',
                  'Someone saved this brief after you opened it. Your changes are still in the form: open the newest version, then save them again.',
                ),
              );
            }
            const version = c.briefVersion + 1;
            versionsOf(c).unshift({ version, brief: save.brief, author: ME, createdAt: AT });
            record(id, 'brief-saved', `Brief version ${version}`);
            return json(res, 200, replace({ ...c, brief: save.brief, briefVersion: version }));
          }
          case 'POST duplicate': {
            const copy = campaign({
              ...c,
              id: nextId(),
              name: `${c.name} (copy)`,
              role: 'owner',
              owner: ME,
              sharing: 'private',
              editors: [],
              briefVersion: 1,
              duplicatedFrom: c.id,
            });
            state.campaigns.push(copy);
            record(copy.id, 'duplicated', `A copy of “${c.name}”`);
            return json(res, 201, copy);
          }
          case 'POST editors': {
            if (c.role !== 'owner') return forbidden();
            const email = String(body.email ?? '');
            const person = state.people[email.toLowerCase()];
            if (!person) {
              return json(
                res,
                400,
                refusal(
                  400,
                  'validation_failed',
                  `No one has signed in to GEM as ${email} yet. Ask them to sign in once, then add them.`,
                ),
              );
            }
            record(id, 'editor-added', person.name);
            return json(res, 200, replace({ ...c, editors: [...c.editors, person] }));
          }
          case 'DELETE editors':
            if (c.role !== 'owner') return forbidden();
            return json(res, 200, replace({ ...c, editors: c.editors.filter((e) => e.id !== editorId) }));
          default:
            return json(res, 404, refusal(404, 'not_found', `No route ${method} ${req.url}`));
        }
      });
    }
  });

  function patch(
    c: Campaign,
    change: UpdateCampaignRequest,
    res: Parameters<Parameters<Server['on']>[2]>[2],
    mayEdit: boolean,
    forbidden: () => void,
  ) {
    if (!mayEdit || (change.sharing && c.role !== 'owner')) return forbidden();
    state.patches.push(change);
    if (change.landingUrl && !/^https?:\/\/[^\s/]+\.[^\s/]+/i.test(change.landingUrl)) {
      return json(
        res,
        400,
        refusal(400, 'validation_failed', 'Some fields are not valid.', [
          {
            path: 'body.landingUrl',
            message: 'The landing page must be a whole web address, such as https://www.example.com/webinar.',
          },
        ]),
      );
    }
    if (change.crmCampaignId && !state.crmCampaigns.includes(change.crmCampaignId)) {
      return json(
        res,
        400,
        refusal(400, 'validation_failed', `The CRM has no campaign with the id ${change.crmCampaignId}.`),
      );
    }
    if (change.name !== undefined && change.name !== c.name)
      record(c.id, 'renamed', `“${c.name}” → “${change.name}”`);
    if (change.status && change.status !== c.status) {
      record(
        c.id,
        'status-changed',
        `${campaignStatusLabels[c.status]} → ${campaignStatusLabels[change.status]}`,
      );
    }
    const next = { ...c, ...change, updatedAt: '2026-03-15T08:00:00.000Z' } as Campaign;
    json(res, 200, replace(next));
  }

  return { state, saveAsSomeoneElse };
}
