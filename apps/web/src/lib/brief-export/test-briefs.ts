import { emptyBriefData, type BriefData } from '@gem/contracts/brief-creator';

import type { ExportableBrief } from './brief-values';

/** Every field filled, with values a spreadsheet could take for formulas. */
export const fullData: BriefData = {
  campaignName: 'Spring Launch 2026',
  campaignType: ['Webinar', 'Email'],
  primaryObjective: '=HYPERLINK("http://x")',
  eventObjective: 'Fill the room with <CFOs> & their teams',
  eventDate: '2026-03-12',
  targetAudience: 'Finance leaders\nin mid-sized companies',
  budget: '+48 123',
  timeline: '-5%',
  keyMessages: '@admin',
  channels: ['LinkedIn', '=1+1', '  ', 'Newsletter'],
  activityKPIs: ['500 registrations', '+20% open rate'],
  businessKPIs: ['30 qualified leads'],
  creativeAssets: 'Banner 1200×628, teaser video 🎬',
  additionalNotes: 'Zażółć gęślą jaźń',
  recommendations: ['Invite a client CFO as a speaker', '-Send two reminders'],
};

export const fullBrief: ExportableBrief = {
  title: 'Spring Launch 2026',
  data: fullData,
  createdAt: '2026-02-20T12:00:00Z',
  id: '7b0e1a8e-3c1f-4a57-9d0a-6f1d2b3c4d5e',
};

/** Only the campaign name: every other field empty. */
export const sparseBrief: ExportableBrief = {
  title: '',
  data: { ...emptyBriefData(), campaignName: 'Quiet brief' },
};
