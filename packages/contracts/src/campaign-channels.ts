import type { WritingToolName } from './writing-tools';

/**
 * The channels a campaign's assets are made for (issue 29): which writing tool makes each, the
 * limits its text is counted against, and the UTM source and medium its links carry. A brief
 * names its channels in its own words ('LinkedIn', 'E-mail', 'Google Ads'); `channelsOfBrief`
 * reads them as these.
 */

export const campaignChannelIds = [
  'article',
  'linkedin-post',
  'facebook-post',
  'x-post',
  'google-ads',
  'meta-ads',
  'email-teaser',
] as const;
export type CampaignChannelId = (typeof campaignChannelIds)[number];

/** A limit a channel's text is counted against: the whole text, or a part of it. */
export type ChannelLimit = { label: string; max: number; unit: 'characters' | 'words' };

export type CampaignChannel = {
  id: CampaignChannelId;
  label: string;
  tool: Exclude<WritingToolName, 'summarize'>;
  /** What the channel itself allows or recommends, shown beside the counts. */
  limits: readonly ChannelLimit[];
  /** The social post's length: 300 words for a long professional post, else 200. */
  postWords?: 200 | 300;
  utm: { source: string; medium: string };
  /** Lower-case words in a brief's channel names that mean this channel. */
  words: readonly string[];
};

export const campaignChannels: Record<CampaignChannelId, CampaignChannel> = {
  article: {
    id: 'article',
    label: 'Article',
    tool: 'article',
    limits: [{ label: 'Article', max: 600, unit: 'characters' }],
    utm: { source: 'website', medium: 'content' },
    words: ['article', 'artykuł', 'artykul', 'blog', 'website', 'strona', 'www'],
  },
  'linkedin-post': {
    id: 'linkedin-post',
    label: 'LinkedIn post',
    tool: 'social-media-post',
    limits: [{ label: 'LinkedIn post', max: 3_000, unit: 'characters' }],
    postWords: 300,
    utm: { source: 'linkedin', medium: 'social' },
    words: ['linkedin'],
  },
  'facebook-post': {
    id: 'facebook-post',
    label: 'Facebook post',
    tool: 'social-media-post',
    limits: [{ label: 'Facebook post', max: 63_206, unit: 'characters' }],
    postWords: 200,
    utm: { source: 'facebook', medium: 'social' },
    words: ['facebook'],
  },
  'x-post': {
    id: 'x-post',
    label: 'X post',
    tool: 'social-media-post',
    limits: [{ label: 'X post', max: 280, unit: 'characters' }],
    postWords: 200,
    utm: { source: 'x', medium: 'social' },
    words: ['twitter', 'x.com', ' x '],
  },
  'google-ads': {
    id: 'google-ads',
    label: 'Google Ads',
    tool: 'paid-ads',
    limits: [
      { label: 'Headline', max: 30, unit: 'characters' },
      { label: 'Description', max: 90, unit: 'characters' },
    ],
    utm: { source: 'google', medium: 'cpc' },
    words: ['google', 'search ads', 'adwords'],
  },
  'meta-ads': {
    id: 'meta-ads',
    label: 'Meta ads',
    tool: 'paid-ads',
    limits: [
      { label: 'Primary text', max: 125, unit: 'characters' },
      { label: 'Headline', max: 40, unit: 'characters' },
    ],
    utm: { source: 'facebook', medium: 'paid-social' },
    words: ['meta', 'instagram', 'facebook ads', 'paid social'],
  },
  'email-teaser': {
    id: 'email-teaser',
    label: 'E-mail teaser',
    tool: 'teaser-generator',
    limits: [{ label: 'Teaser', max: 600, unit: 'characters' }],
    utm: { source: 'newsletter', medium: 'email' },
    words: ['email', 'e-mail', 'mail', 'newsletter', 'mailing'],
  },
};

/**
 * The channels a brief's channel names call for, in the catalogue's order. 'Facebook ads' is the
 * Meta ads channel, not a Facebook post; a name GEM does not know calls for nothing.
 */
export function channelsOfBrief(names: readonly string[]): CampaignChannelId[] {
  const found = new Set<CampaignChannelId>();
  for (const name of names) {
    const text = ` ${name.toLowerCase().trim()} `;
    const paidFacebook = text.includes('facebook ads') || text.includes('facebook ad ');
    for (const channel of Object.values(campaignChannels)) {
      if (channel.id === 'facebook-post' && paidFacebook) continue;
      if (channel.words.some((word) => text.includes(word))) found.add(channel.id);
    }
  }
  return campaignChannelIds.filter((id) => found.has(id));
}
