import { describe, expect, it } from 'vitest';
import { campaignChannelIds, campaignChannels, channelsOfBrief } from './campaign-channels';

describe('channelsOfBrief', () => {
  it('reads a brief’s channel names as GEM’s channels, in the catalogue’s order', () => {
    expect(channelsOfBrief(['LinkedIn', 'Email'])).toEqual(['linkedin-post', 'email-teaser']);
    expect(channelsOfBrief(['Newsletter', 'Blog firmowy', 'Google Ads', 'X'])).toEqual([
      'article',
      'x-post',
      'google-ads',
      'email-teaser',
    ]);
    expect(channelsOfBrief(['Facebook', 'Facebook Ads', 'Instagram'])).toEqual(['facebook-post', 'meta-ads']);
    expect(channelsOfBrief(['E-mail', 'mailing do klientów'])).toEqual(['email-teaser']);
  });

  it('calls for nothing on a name it does not know, and does not read words inside other words', () => {
    expect(channelsOfBrief(['Seminar', 'Konferencja', 'Print', ''])).toEqual([]);
    expect(channelsOfBrief([])).toEqual([]);
  });

  it('gives every channel a writing tool, a limit and UTM source and medium', () => {
    for (const id of campaignChannelIds) {
      const channel = campaignChannels[id];
      expect(channel.id).toBe(id);
      expect(channel.limits.length).toBeGreaterThan(0);
      expect(channel.utm.source).toMatch(/^[a-z-]+$/);
      expect(channel.utm.medium).toMatch(/^[a-z-]+$/);
      if (channel.tool === 'social-media-post') expect([200, 300]).toContain(channel.postWords);
    }
    expect(campaignChannels['google-ads'].limits).toEqual([
      { label: 'Headline', max: 30, unit: 'characters' },
      { label: 'Description', max: 90, unit: 'characters' },
    ]);
  });
});
