import type {
  AnalysisFigure,
  AnalysisSentence,
  CampaignsResponse,
  GenerateSegmentsResponse,
  ReportContact,
  ReportResponse,
} from '@gem/contracts/campaign-audience-builder';

import { reportPageUrl } from '../report-links';

/** Made-up CRM records in the contract's shapes, as the server answers. */

export const CAMPAIGN_ID = '701Qy00000AbCdEfGH';
export const PAST_ID = '701Qy00000PastCmp1';

export const campaigns: CampaignsResponse = {
  campaigns: [
    { id: CAMPAIGN_ID, name: 'Spring CFO Webinar', type: 'Webinar', startDate: '2026-03-12' },
    { id: '701Qy00000XyZaBcDe', name: 'ESG Breakfast Warsaw', type: 'Event', startDate: '2026-02-03' },
    { id: '701Qy00000NoDate00', name: 'Tax Newsletter', type: null, startDate: null },
  ],
  crm: 'embedded',
  sample: true,
};

const segment = {
  subIndustries: ['Commercial Banking', 'Insurance'],
  roles: ['Finance'],
  titles: ['Chief Financial Officer', 'Finance Director'],
  workAreas: [],
  employeeBands: ['50-249' as const, '250-999' as const],
  revenueBands: [],
};

/** A sentence with its figures, each found by its text and given its verdict, as the server checks them. */
export function sentence(
  text: string,
  ...figures: [figure: string, verdict: AnalysisFigure['verdict'], fact: AnalysisFigure['fact']][]
): AnalysisSentence {
  return {
    text,
    figures: figures.map(([figure, verdict, fact]) => {
      const start = text.indexOf(figure);
      if (start < 0) throw new Error(`"${figure}" is not in "${text}"`);
      return { start, end: start + figure.length, verdict, fact };
    }),
  };
}

const banking = { subject: 'Commercial Banking', members: 80, responders: 30 };
const insurance = { subject: 'Insurance', members: 52, responders: 12 };

/** The model's analysis, in Polish: its figures match the CRM's, but one for Insurance. */
const explanation = [
  [
    sentence(
      'W podbranży Commercial Banking odpowiedziało 30 z 80 uczestników (37,5%).',
      ['30 z 80', 'matches', banking],
      ['37,5%', 'matches', banking],
    ),
    sentence('Insurance odpowiadał w 45,0%.', ['45,0%', 'contradicts', insurance]),
  ],
  [sentence('Wcześniejsze kampanie potwierdzają ten kierunek.')],
];
const approach = [
  [sentence('Zaproś dyrektorów finansowych banków na LinkedIn, ok. 2 tygodnie przed webinarem.')],
];
const plain = (paragraphs: AnalysisSentence[][]) =>
  paragraphs.map((sentences) => sentences.map((s) => s.text).join(' ')).join('\n\n');

export function segmentsResponse(extra: Partial<GenerateSegmentsResponse> = {}): GenerateSegmentsResponse {
  return {
    explanation: plain(explanation),
    approach: plain(approach),
    ...segment,
    campaigns: [{ name: 'Autumn CFO Roundtable', objective: 'Lead generation', lineOfService: 'Advisory' }],
    subIndustriesString: 'Commercial Banking, Insurance',
    rolesString: 'Finance',
    titlesString: 'Chief Financial Officer, Finance Director',
    workAreasString: '',
    reports: [
      {
        type: 'follow-up',
        title: 'Follow-up: members who have not responded',
        url: reportPageUrl('follow-up', CAMPAIGN_ID, segment),
        description: 'Members of the campaign in the segment who have not responded yet.',
        reach: 37,
      },
      {
        type: 'new-prospects',
        title: 'New prospects in the segment',
        url: reportPageUrl('new-prospects', CAMPAIGN_ID, segment),
        description: 'Contacts in the segment who are not members yet.',
        reach: 1234,
      },
      {
        type: 'past-responders',
        title: 'Responders to past campaigns',
        url: 'https://example.my.salesforce.com/lightning/r/Report/00O000000000001/view',
        description: 'Responders to the recommended past campaigns.',
        reach: null,
      },
    ],
    analysis: {
      language: 'pl',
      explanation: { paragraphs: explanation },
      approach: { paragraphs: approach },
    },
    facts: {
      campaign: {
        id: CAMPAIGN_ID,
        name: 'Spring CFO Webinar',
        type: 'Webinar',
        startDate: '2026-03-12',
        objective: 'Pipeline for the finance advisory',
        lineOfService: 'Advisory',
      },
      members: 240,
      responders: 60,
      byIndustry: [],
      bySubIndustry: [
        { value: 'Commercial Banking', responders: 30, nonResponders: 50 },
        { value: 'Insurance', responders: 12, nonResponders: 40 },
      ],
      byTitle: [{ value: 'Chief Financial Officer', responders: 25, nonResponders: 20 }],
      byRole: [],
      byWorkArea: [],
      byEmployees: [
        { value: '1-49', responders: 4, nonResponders: 36 },
        { value: '50-249', responders: 30, nonResponders: 60 },
        { value: '250-999', responders: 18, nonResponders: 42 },
        { value: '1000+', responders: 8, nonResponders: 42 },
      ],
      byRevenue: [
        { value: '10M-50M', responders: 20, nonResponders: 70 },
        { value: '50M-250M', responders: 40, nonResponders: 110 },
      ],
      revenueCurrency: 'PLN',
      pastCampaigns: [
        {
          id: PAST_ID,
          name: 'Autumn CFO Roundtable',
          startDate: '2025-10-01',
          objective: 'Lead generation',
          lineOfService: 'Advisory',
          members: 120,
          responders: 48,
        },
      ],
    },
    crm: 'embedded',
    sample: true,
    ...extra,
  };
}

export const contact = (n: number, extra: Partial<ReportContact> = {}): ReportContact => ({
  id: `003Qy0000000Cont${String(n).padStart(2, '0')}`,
  name: `Contact ${n}`,
  // Every third contact has no e-mail in the CRM.
  email: n % 3 === 0 ? null : `contact.${n}@bank-${n}.example`,
  title: 'Chief Financial Officer',
  accountId: `001Qy0000000Acct${String(n).padStart(2, '0')}`,
  account: `Bank ${n}`,
  industry: 'Financial Services',
  subIndustry: 'Commercial Banking',
  employees: 120 + n,
  annualRevenue: n % 4 === 0 ? null : 48_000_000 + n * 1_000_000,
  lastResponse: n % 2 === 0 ? { campaignName: 'Autumn CFO Roundtable', respondedAt: '2025-10-02' } : null,
  ...extra,
});

export function reportResponse(page: number, extra: Partial<ReportResponse> = {}): ReportResponse {
  const total = 120;
  const pageSize = 50;
  const first = (page - 1) * pageSize + 1;
  const count = Math.max(0, Math.min(pageSize, total - first + 1));
  return {
    type: 'new-prospects',
    title: 'New prospects in the segment',
    description: 'Contacts in the segment who are not members yet.',
    campaign: campaigns.campaigns[0]!,
    segment,
    revenueCurrency: 'PLN',
    total,
    page,
    pageSize,
    contacts: Array.from({ length: count }, (_, i) => contact(first + i)),
    sample: true,
    ...extra,
  };
}
