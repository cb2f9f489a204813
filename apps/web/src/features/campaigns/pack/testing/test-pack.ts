import { emptyBriefData } from '@gem/contracts/brief-creator';
import type { CampaignPack } from '@gem/contracts/campaign-pack';

const OWNER = { id: '10000000-0000-4000-8000-000000000001', name: 'Marketer' };
const EDITOR = { id: '10000000-0000-4000-8000-000000000002', name: 'Ola Nowak' };
const tags = 'utm_campaign=spring-webinar';

/** A pack as the server hands it over: two approved assets, a landing page, a source. */
export function testPack(overrides: Partial<CampaignPack> = {}): CampaignPack {
  return {
    campaign: {
      id: 'c0000000-0000-4000-8000-000000000001',
      name: 'Spring Webinar',
      status: 'active',
      owner: OWNER,
      landingUrl: 'https://gem.example/webinar',
      crmCampaignId: '701000000000001AAA',
      utmCampaign: 'spring-webinar',
    },
    brief: {
      version: 3,
      data: {
        ...emptyBriefData(),
        campaignName: 'Spring Webinar',
        campaignType: ['Webinar'],
        primaryObjective: 'Leads from CFOs',
        keyMessages: 'Cash flow visibility pays for itself.',
        channels: ['LinkedIn', 'Newsletter'],
      },
    },
    assets: [
      {
        channel: 'linkedin-post',
        label: 'LinkedIn post',
        version: 2,
        text: `Dołącz do webinaru: https://gem.example/webinar?utm_source=linkedin&utm_medium=social&${tags}.\n\nPartner: https://partner.example/cfo?utm_source=partner`,
        savedBy: EDITOR,
        savedAt: '2026-03-14T10:30:00.000Z',
        provenance: {
          briefVersion: 2,
          tool: 'social-media-post',
          promptVersion: 'social-media-post@1a2b3c4d',
          model: 'gpt-4o',
          generationId: 'gen-1',
          instruction: 'Shorter',
          sources: [{ title: 'PwC: CFO 2027', url: 'https://www.pwc.pl/pl/raporty/cfo-2027.html' }],
        },
        utm: { source: 'linkedin', medium: 'social', content: null },
        links: [
          {
            written: 'https://gem.example/webinar',
            tagged: `https://gem.example/webinar?utm_source=linkedin&utm_medium=social&${tags}`,
          },
          {
            written: 'https://partner.example/cfo?utm_source=partner',
            tagged: 'https://partner.example/cfo?utm_source=partner',
          },
        ],
      },
      {
        channel: 'email-teaser',
        label: 'E-mail teaser',
        version: 1,
        text: 'Webinar dla CFO: zapisz się już dziś.',
        savedBy: OWNER,
        savedAt: '2026-03-14T11:00:00.000Z',
        provenance: null,
        utm: { source: 'newsletter', medium: 'email', content: null },
        links: [],
      },
    ],
    qrTarget: `https://gem.example/webinar?utm_source=qr&utm_medium=print&${tags}`,
    qr: null,
    audience: [],
    sources: [
      {
        id: 'a0000000-0000-4000-8000-000000000001',
        kind: 'competitor',
        title: 'PwC: CFO 2027',
        url: 'https://www.pwc.pl/pl/raporty/cfo-2027.html',
        summary: 'Co drugi dyrektor finansowy planuje inwestycje w automatyzację.',
        addedBy: OWNER,
        addedAt: '2026-03-13T09:00:00.000Z',
      },
    ],
    madeAt: '2026-03-15T08:00:00.000Z',
    ...overrides,
  };
}

/** A pack with nothing approved and no landing page. */
export const emptyPack = (): CampaignPack =>
  testPack({
    campaign: { ...testPack().campaign, landingUrl: null, crmCampaignId: null },
    assets: [],
    qrTarget: null,
    sources: [],
  });
