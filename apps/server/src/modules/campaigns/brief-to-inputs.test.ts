import { emptyBriefData, type BriefData } from '@gem/contracts/brief-creator';
import { campaignChannelIds } from '@gem/contracts/campaign-channels';
import { INPUT_CHARACTER_LIMIT } from '@gem/contracts/text-rules';
import { writingToolInputSchemas } from '@gem/contracts/writing-tools';
import { describe, expect, it } from 'vitest';
import { briefDigest, briefToInputs, callToAction } from './brief-to-inputs';

const webinar: BriefData = {
  ...emptyBriefData(),
  campaignName: 'CFO Webinar 2027',
  campaignType: ['Webinar'],
  primaryObjective: 'Win 40 qualified leads among CFOs of mid-size manufacturers.',
  eventDate: '2027-03-18',
  targetAudience: 'CFOs of mid-size manufacturers in Poland',
  keyMessages: 'Cash flow visibility pays for itself.',
  channels: ['LinkedIn', 'Email'],
};

describe('the brief as a writing tool’s inputs', () => {
  it('digests the filled fields under Polish labels, in the brief’s own words', () => {
    expect(briefDigest(webinar)).toBe(
      [
        'Kampania: CFO Webinar 2027',
        'Typ kampanii: Webinar',
        'Cel główny: Win 40 qualified leads among CFOs of mid-size manufacturers.',
        'Data wydarzenia: 2027-03-18',
        'Grupa docelowa: CFOs of mid-size manufacturers in Poland',
        'Kluczowe przekazy: Cash flow visibility pays for itself.',
        'Kanały: LinkedIn, Email',
      ].join('\n'),
    );
    expect(briefDigest(emptyBriefData())).toBe('');
  });

  it('asks for registration for an event, else for the objective, else for a general action', () => {
    expect(callToAction(webinar)).toBe('Zachęć do rejestracji na wydarzenie (2027-03-18).');
    expect(callToAction({ ...webinar, eventDate: null })).toBe(
      'Zakończ wezwaniem do działania, które służy celowi: Win 40 qualified leads among CFOs of mid-size manufacturers.',
    );
    expect(callToAction(emptyBriefData())).toBe('Zakończ krótkim wezwaniem do działania.');
  });

  it('fills each channel’s tool with inputs its schema takes', () => {
    const linkedin = briefToInputs(webinar, 'linkedin-post');
    expect(linkedin).toEqual({
      tool: 'social-media-post',
      input: {
        summary: briefDigest(webinar),
        content: 'Cash flow visibility pays for itself.',
        description:
          'LinkedIn post kampanii „CFO Webinar 2027”. Adresatem jest: CFOs of mid-size manufacturers in Poland. Zachęć do rejestracji na wydarzenie (2027-03-18).',
        format: 300,
        persona: 'CEO',
      },
    });
    expect(briefToInputs(webinar, 'x-post').input).toMatchObject({ format: 200 });
    const article = briefToInputs(webinar, 'article');
    expect(article.tool).toBe('article');
    expect(article.input).toMatchObject({ content: briefDigest(webinar) });
    expect(briefToInputs(webinar, 'google-ads')).toEqual({
      tool: 'paid-ads',
      input: {
        content: `${briefDigest(webinar)}\n\nGoogle Ads. Zachęć do rejestracji na wydarzenie (2027-03-18).`,
      },
    });
    for (const brief of [webinar, emptyBriefData()]) {
      for (const channel of campaignChannelIds) {
        const { tool, input } = briefToInputs(brief, channel);
        expect(() => writingToolInputSchemas[tool].parse(input), `${channel}`).not.toThrow();
      }
    }
  });

  it('keeps every input within its limit for a brief whose fields are full', () => {
    const full: BriefData = {
      ...webinar,
      campaignName: 'N'.repeat(4_000),
      primaryObjective: 'O'.repeat(4_000),
      eventObjective: 'E'.repeat(4_000),
      targetAudience: 'A'.repeat(4_000),
      keyMessages: 'K'.repeat(4_000),
      timeline: 'T'.repeat(4_000),
      additionalNotes: 'D'.repeat(4_000),
    };
    for (const channel of campaignChannelIds) {
      const { tool, input } = briefToInputs(full, channel);
      for (const value of Object.values(input)) {
        if (typeof value === 'string') expect(value.length).toBeLessThanOrEqual(INPUT_CHARACTER_LIMIT);
      }
      expect(() => writingToolInputSchemas[tool].parse(input), `${channel}`).not.toThrow();
    }
  });
});
