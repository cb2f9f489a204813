import {
  campaignAudienceBuilderPaths as paths,
  type GenerateSegmentsResponse,
} from '@gem/contracts/campaign-audience-builder';
import { DEMO_ANSWER_TEXT } from '@gem/contracts/ai-status';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';

import { json, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

import { CAMPAIGN_ID, campaigns, segmentsResponse, sentence } from '../testing/fixtures';

/**
 * The AI analysis as the page shows it (issue 27, items 8 and 13): labelled as Polish on the
 * English page, each figure with what GEM's check against the CRM found, and marked as a demo
 * answer when the built-in stand-in wrote it.
 */

const server = serveApi();
let answer: GenerateSegmentsResponse;

beforeEach(() => {
  answer = segmentsResponse();
  server.on('GET', paths.campaigns, (_req, _body, res) => json(res, 200, campaigns));
  server.on('POST', paths.generate, (_req, _body, res) => json(res, 200, answer));
});

/** The page with generated segments: the AI analysis's section. */
async function analysis() {
  const view = renderRoute('/tools/campaign-audience-builder');
  await view.user.type(await screen.findByRole('textbox', { name: 'Campaign ID' }), CAMPAIGN_ID);
  await view.user.type(screen.getByRole('textbox', { name: 'Marketing Goal' }), 'More CFOs');
  await view.user.click(screen.getByRole('button', { name: 'Generate Segments' }));
  const results = screen.getByRole('region', { name: 'Segments' });
  await within(results).findByRole('heading', { level: 2, name: 'Spring CFO Webinar' });
  return within(results).getByRole('region', { name: 'AI analysis' });
}

/** The element of the analysis's text that holds `text` (the explanation or the approach). */
const proseOf = (section: HTMLElement, text: string) =>
  within(section).getByText(text, { exact: false }).closest('[lang]') as HTMLElement;

describe('the AI analysis', () => {
  it('says it is in Polish, and marks the Polish text as such for screen readers and translators', async () => {
    const section = await analysis();
    expect(within(section).getByText('In Polish')).toBeVisible();
    const explanation = proseOf(section, 'W podbranży Commercial Banking');
    expect(explanation).toHaveAttribute('lang', 'pl');
    expect(explanation.querySelectorAll('p')).toHaveLength(2);
    expect(proseOf(section, 'Zaproś dyrektorów finansowych')).toHaveAttribute('lang', 'pl');
    // The section's own words stay English.
    expect(within(section).getByRole('heading', { name: 'Explanation' }).closest('[lang="pl"]')).toBeNull();
  });

  it('marks a figure that matches the CRM with a check, in words too', async () => {
    const section = await analysis();
    const figure = within(section).getByText('37,5%');
    expect(figure).toHaveTextContent('37,5% (matches the CRM)');
    expect(figure.querySelector('svg')).not.toBeNull();
    expect(figure).toHaveAttribute(
      'title',
      'Matches the CRM: Commercial Banking, 30 of 80 responded (37.5%)',
    );
    expect(within(section).getByText('30 z 80')).toHaveTextContent('30 z 80 (matches the CRM)');
  });

  it('crosses out a figure that contradicts the CRM, and shows the CRM’s numbers beside it', async () => {
    const section = await analysis();
    const wrong = within(section).getByText('45,0%');
    const fact = wrong.nextElementSibling as HTMLElement;
    expect(fact).toHaveTextContent('does not match the CRM: Insurance, 12 of 52 responded (23.1%)');
    expect(fact).toHaveAttribute('lang', 'en');
    expect(fact.parentElement).toHaveTextContent(
      'Insurance odpowiadał w 45,0% does not match the CRM: Insurance, 12 of 52 responded (23.1%).',
    );
    // What the check found is said first, in words.
    expect(within(section).getByRole('note')).toHaveTextContent(
      'GEM checked the figures against the CRM: 1 does not match (crossed out, with the CRM’s numbers beside it), 2 match (marked with a check).',
    );
  });

  it('counts what could not be checked', async () => {
    answer = segmentsResponse({
      analysis: {
        language: 'pl',
        explanation: {
          paragraphs: [
            [
              sentence(
                'Commercial Banking: 37,5%; ponad 40% decydentów czyta newslettery.',
                ['37,5%', 'matches', { subject: 'Commercial Banking', members: 80, responders: 30 }],
                ['40%', 'unchecked', null],
              ),
            ],
          ],
        },
        approach: { paragraphs: [[sentence('Zaproś ich na LinkedIn.')]] },
      },
    });
    const section = await analysis();
    expect(within(section).getByRole('note')).toHaveTextContent(
      'GEM checked the figures against the CRM: 1 matches (marked with a check), 1 could not be checked.',
    );
    expect(within(section).getByText(/ponad 40% decydentów/)).toBeVisible();
  });

  it('says nothing of a check when the text has no figures', async () => {
    answer = segmentsResponse({
      analysis: {
        language: 'pl',
        explanation: { paragraphs: [[sentence('Najlepiej odpowiadali dyrektorzy finansowi.')]] },
        approach: { paragraphs: [[sentence('Zaproś ich na LinkedIn.')]] },
      },
    });
    const section = await analysis();
    expect(within(section).queryByRole('note')).toBeNull();
    expect(within(section).getByText('Najlepiej odpowiadali dyrektorzy finansowi.')).toBeVisible();
  });

  it('labels no language when the model answered in English, the page’s own', async () => {
    answer = segmentsResponse({
      analysis: {
        language: 'en',
        explanation: { paragraphs: [[sentence('Finance leaders of banks answered most.')]] },
        approach: { paragraphs: [[sentence('Invite them on LinkedIn.')]] },
      },
    });
    const section = await analysis();
    expect(within(section).queryByText('In Polish')).toBeNull();
    expect(proseOf(section, 'Finance leaders of banks')).toHaveAttribute('lang', 'en');
  });
});

describe('a demo answer (no AI service is configured)', () => {
  it('marks the analysis with the writing tools’ words, and the page says the answers are demos', async () => {
    server.state.aiStatus = { configured: true, provider: 'demo', model: 'gem-demo-stand-in', demo: true };
    answer = segmentsResponse({ demo: true });
    const section = await analysis();
    expect(within(section).getByText(DEMO_ANSWER_TEXT)).toBeVisible();
    expect(DEMO_ANSWER_TEXT).toBe('Demo answer: no AI service is configured');
    expect(
      await screen.findByRole('heading', { name: 'Demo answers: no AI service is configured' }),
    ).toBeVisible();
  });

  it('says nothing of a demo for a real service’s answer', async () => {
    const section = await analysis();
    expect(within(section).queryByText(DEMO_ANSWER_TEXT)).toBeNull();
    expect(screen.queryByRole('heading', { name: /Demo answers/ })).toBeNull();
  });
});
