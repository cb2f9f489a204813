import type { GenerationRecord } from '@gem/contracts/writing-tools';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { deltas, final, gate, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

const server = serveApi();

async function openPost() {
  const view = renderRoute('/tools/social-media-post');
  await screen.findByRole('heading', { level: 1, name: 'Social media post' });
  return {
    ...view,
    content: screen.getByLabelText('Paste the base content'),
    summary: screen.getByLabelText('Summary'),
    description: screen.getByLabelText('Describe the post'),
    format: screen.getByLabelText('Format'),
    persona: screen.getByLabelText('Persona'),
    summarize: screen.getByRole('button', { name: 'Summarize' }),
    generate: screen.getByRole('button', { name: 'Generate' }),
    output: screen.getByRole('region', { name: 'Check the output' }),
  };
}

describe('Social media post page', () => {
  it('summarizes (streamed into the summary), lets the summary be edited, then generates the post', async () => {
    const hold = gate();
    server.reply(
      {
        kind: 'stream',
        events: [...deltas('Raport mówi o AI. '), { until: hold.until }, final('Raport mówi o AI.')],
      },
      { kind: 'stream', events: [final('Nasz nowy raport o AI już dostępny!')] },
    );
    const view = await openPost();
    expect(view.summarize).toBeDisabled();
    await view.user.type(view.content, 'Długi raport o sztucznej inteligencji');
    await view.user.click(view.summarize);
    expect(server.state.calls[0]).toMatchObject({
      name: 'summarize',
      body: { documentText: 'Długi raport o sztucznej inteligencji' },
    });
    await expect.poll(() => (view.summary as HTMLTextAreaElement).value).toBe('Raport mówi o AI. ');
    expect(view.summary).toHaveAttribute('readonly');
    hold.open();
    await expect.poll(() => (view.summary as HTMLTextAreaElement).value).toBe('Raport mówi o AI.');
    expect(view.summary).not.toHaveAttribute('readonly');

    // Generate also needs the description.
    expect(view.generate).toBeDisabled();
    await view.user.type(view.summary, ' Dla CFO.');
    await view.user.type(view.description, 'Zaproszenie na webinar');
    await view.user.selectOptions(view.format, 'Long: up to 300 words');
    expect(
      within(view.persona as HTMLElement)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['CEO']);
    await view.user.click(view.generate);

    await within(view.output).findByText('Nasz nowy raport o AI już dostępny!');
    expect(server.state.calls[1]).toEqual({
      name: 'social-media-post',
      body: {
        summary: 'Raport mówi o AI. Dla CFO.',
        content: 'Długi raport o sztucznej inteligencji',
        description: 'Zaproszenie na webinar',
        format: 300,
        persona: 'CEO',
      },
      authorization: undefined,
    });
    await view.user.click(within(view.output).getByRole('button', { name: 'Copy to clipboard' }));
    expect(await navigator.clipboard.readText()).toBe('Nasz nowy raport o AI już dostępny!');
  });

  it('says "Error summarizing text" when the summary fails, and keeps the content', async () => {
    server.reply({ kind: 'error', status: 502, code: 'ai_unavailable' });
    const view = await openPost();
    await view.user.type(view.content, 'Treść');
    await view.user.click(view.summarize);
    expect(await screen.findByRole('alert')).toHaveTextContent('Error summarizing text');
    expect(view.content).toHaveValue('Treść');
  });

  it('says "Error generating post" and "Error occured, please try again" for the post', async () => {
    server.reply(
      { kind: 'error', status: 502, code: 'ai_unavailable' },
      { kind: 'stream', events: [final(' ')] },
    );
    const view = await openPost();
    await view.user.type(view.content, 'Treść');
    await view.user.type(view.summary, 'Streszczenie');
    await view.user.type(view.description, 'Opis');
    await view.user.click(view.generate);
    expect(await within(view.output).findByRole('alert')).toHaveTextContent('Error generating post');
    await view.user.click(view.generate);
    expect(await within(view.output).findByText('Error occured, please try again')).toBeVisible();
    expect(view.description).toHaveValue('Opis');
  });

  it('brings back an earlier post with all its inputs', async () => {
    const record: GenerationRecord = {
      id: 'p-1',
      generator: 'social-media-post',
      createdAt: '2026-11-21T08:00:00.000Z',
      input: { summary: 'S', content: 'C', description: 'Webinar ESG', format: 300, persona: 'CEO' },
      output: { text: 'Post o ESG', shortened: false, truncated: false },
      outcome: 'succeeded',
    };
    server.state.history['social-media-post'] = [record];
    const view = await openPost();
    await view.user.click(await screen.findByRole('button', { name: /Webinar ESG/ }));
    expect(view.content).toHaveValue('C');
    expect(view.summary).toHaveValue('S');
    expect(view.description).toHaveValue('Webinar ESG');
    expect(view.format).toHaveValue('300');
    expect(within(view.output).getByText('Post o ESG')).toBeVisible();
  });
});
