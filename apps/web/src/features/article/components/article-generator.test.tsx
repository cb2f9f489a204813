import { INPUT_CHARACTER_LIMIT } from '@gem/contracts/text-rules';
import { type GenerationRecord } from '@gem/contracts/writing-tools';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { deltas, final, gate, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

const server = serveApi();

async function openArticle() {
  const view = renderRoute('/tools/article');
  await screen.findByRole('heading', { level: 1, name: 'Article' });
  const content = screen.getByLabelText('Paste the base content');
  const task = screen.getByLabelText('Describe the task for GEM');
  const generate = screen.getByRole('button', { name: 'Generate' });
  const output = screen.getByRole('region', { name: 'Check the output' });
  return { ...view, content, task, generate, output };
}

async function fillAndGenerate(view: Awaited<ReturnType<typeof openArticle>>) {
  await view.user.type(view.content, 'Raport o rynku');
  await view.user.type(view.task, 'Napisz notkę');
  await view.user.click(view.generate);
}

describe('Article page', () => {
  it('has the spec screen: Tools / Article, the two inputs, the output section and the way back', async () => {
    await openArticle();
    const trail = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(trail).getByRole('link', { name: 'Tools' })).toHaveAttribute('href', '/tools');
    // The input panel says what it holds (not 'Brief GEM', which reads as the Brief creator).
    expect(screen.getByRole('form', { name: 'Base content and task' })).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Check the output' })).toBeVisible();
    expect(screen.getByText('Want to generate something else?')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Return to menu' })).toHaveAttribute('href', '/tools');
    expect(screen.getByRole('button', { name: 'Clear fields' })).toBeVisible();
    // Pages load on demand: the title is set once the page's effect has run.
    await waitFor(() => expect(document.title).toBe('Article · GEM'));
  });

  it('enables Generate only with both content and task; Clear fields empties both', async () => {
    const view = await openArticle();
    expect(view.generate).toBeDisabled();
    await view.user.type(view.content, 'Treść');
    expect(view.generate).toBeDisabled();
    await view.user.type(view.task, '   ');
    expect(view.generate).toBeDisabled();
    await view.user.type(view.task, 'Zadanie');
    expect(view.generate).toBeEnabled();
    await view.user.click(screen.getByRole('button', { name: 'Clear fields' }));
    expect(view.content).toHaveValue('');
    expect(view.task).toHaveValue('');
    expect(view.generate).toBeDisabled();
  });

  it('shows the text as it is written, clears it on restart, and ends with the final text', async () => {
    const firstPart = gate();
    const afterRestart = gate();
    server.reply({
      kind: 'stream',
      events: [
        ...deltas('Bardzo długa pierwsza wersja '),
        { until: firstPart.until },
        { type: 'restart' },
        ...deltas('Krótsza '),
        { until: afterRestart.until },
        final('**Krótsza** wersja.', { shortened: true }),
      ],
    });
    const view = await openArticle();
    await fillAndGenerate(view);

    await within(view.output).findByText('Bardzo długa pierwsza wersja');
    expect(within(view.output).getByText('Writing…')).toBeVisible();
    expect(view.generate).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeVisible();
    expect(view.output.querySelector('[aria-live="polite"]')).toHaveAttribute('aria-busy', 'true');

    firstPart.open();
    await within(view.output).findByText('Krótsza');
    expect(within(view.output).queryByText(/pierwsza wersja/)).toBeNull();

    afterRestart.open();
    await waitFor(() => expect(within(view.output).getByText('Krótsza').tagName).toBe('STRONG'));
    expect(within(view.output).queryByText('Writing…')).toBeNull();
    expect(within(view.output).getByText('Shortened to fit')).toBeVisible();
    expect(within(view.output).getByText('19 / 600 characters')).toBeVisible();
    expect(view.generate).toBeEnabled();
    expect(server.state.calls).toEqual([
      {
        name: 'article',
        body: { content: 'Raport o rynku', task: 'Napisz notkę' },
        authorization: undefined,
      },
    ]);
  });

  it('copies the raw output (markdown) to the clipboard', async () => {
    server.reply({ kind: 'stream', events: [final('**Tytuł**\n\nTreść artykułu.')] });
    const view = await openArticle();
    await fillAndGenerate(view);
    await within(view.output).findByText('Tytuł');
    await view.user.click(within(view.output).getByRole('button', { name: 'Copy to clipboard' }));
    expect(await navigator.clipboard.readText()).toBe('**Tytuł**\n\nTreść artykułu.');
    expect(within(view.output).getByRole('button', { name: 'Copied!' })).toBeVisible();
  });

  it.each([
    [
      'a failure the server reports',
      { kind: 'error', status: 502, code: 'ai_unavailable' },
      'Error generating article',
    ],
    [
      'a failure after the stream began',
      {
        kind: 'stream',
        events: [
          { type: 'delta', text: 'Po' },
          { type: 'error', error: { code: 'ai_unavailable', message: 'x' } },
        ],
      },
      'Error generating article',
    ],
    ['an empty result', { kind: 'stream', events: [final('  ')] }, 'Error occurred, please try again'],
    [
      'a dropped connection',
      { kind: 'drop', events: deltas('Urwany ') },
      'An unexpected error occurred. Please try again.',
    ],
  ] as const)('says so on %s, and keeps the inputs', async (_case, reply, text) => {
    server.reply(reply);
    const view = await openArticle();
    await fillAndGenerate(view);
    expect(await within(view.output).findByRole('alert')).toHaveTextContent(text);
    expect(view.content).toHaveValue('Raport o rynku');
    expect(view.task).toHaveValue('Napisz notkę');
    expect(view.generate).toBeEnabled();
  });

  it('on a 429 tells the user when to try again', async () => {
    server.reply({ kind: 'error', status: 429, code: 'too_many_requests', headers: { 'retry-after': '30' } });
    const view = await openArticle();
    await fillAndGenerate(view);
    const alert = await within(view.output).findByRole('alert');
    expect(alert).toHaveTextContent('Error generating article');
    expect(alert).toHaveTextContent(/You have sent too many requests\. Try again in (30|29) seconds\./);
  });

  it('on a 503 ai_busy with Retry-After says the AI service is busy and when to try again', async () => {
    server.reply({ kind: 'error', status: 503, code: 'ai_busy', headers: { 'retry-after': '30' } });
    const view = await openArticle();
    await fillAndGenerate(view);
    const alert = await within(view.output).findByRole('alert');
    expect(alert).toHaveTextContent('Error generating article');
    expect(alert).toHaveTextContent(/The AI service is busy right now\. Try again in (30|29) seconds\./);
  });

  it('counts down the wait an error event asks for after the stream began', async () => {
    server.reply({
      kind: 'stream',
      events: [
        { type: 'delta', text: 'Po' },
        { type: 'error', error: { code: 'ai_busy', message: 'Busy.', retryAfterSeconds: 45 } },
      ],
    });
    const view = await openArticle();
    await fillAndGenerate(view);
    const alert = await within(view.output).findByRole('alert');
    expect(alert).toHaveTextContent('Error generating article');
    expect(alert).toHaveTextContent(/The AI service is busy right now\. Try again in (45|44) seconds\./);
  });

  it('on a 504 ai_timeout says the AI service did not answer in time', async () => {
    server.reply({ kind: 'error', status: 504, code: 'ai_timeout' });
    const view = await openArticle();
    await fillAndGenerate(view);
    const alert = await within(view.output).findByRole('alert');
    expect(alert).toHaveTextContent('Error generating article');
    expect(alert).toHaveTextContent('The AI service did not answer in time. Try again.');
  });

  it('stops on request: the request is aborted and what was written stays', async () => {
    const hold = gate();
    server.reply({
      kind: 'stream',
      events: [...deltas('Początek tekstu '), { until: hold.until }, final('x')],
    });
    const view = await openArticle();
    await fillAndGenerate(view);
    await within(view.output).findByText('Początek tekstu');
    // Focus went from the (now disabled) Generate button to Stop, beside the output.
    const stop = within(view.output).getByRole('button', { name: 'Stop' });
    expect(stop).toHaveFocus();
    await view.user.keyboard('{Enter}');
    expect(await within(view.output).findByText('Stopped')).toBeVisible();
    // ...and then to the output, not lost to the page.
    expect(screen.getByRole('heading', { name: 'Check the output' })).toHaveFocus();
    expect(within(view.output).getByText('Początek tekstu')).toBeVisible();
    await waitFor(() => expect(server.state.closed).toHaveLength(1));
    expect(view.generate).toBeEnabled();
    hold.open();
  });

  it('explains the content limit and holds Generate back when over it', async () => {
    const view = await openArticle();
    await view.user.click(view.content);
    await view.user.paste('a'.repeat(INPUT_CHARACTER_LIMIT + 1));
    await view.user.type(view.task, 'Zadanie');
    expect(screen.getByText('20,001 / 20,000')).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The content is too long: at most 20,000 characters. Shorten it to continue.',
    );
    expect(view.content).toHaveAttribute('aria-invalid', 'true');
    expect(view.generate).toBeDisabled();
  });

  it('shows a notice when no AI service is configured, and the page stays usable', async () => {
    server.state.aiStatus = { configured: false, provider: null, model: null };
    const view = await openArticle();
    expect(await screen.findByRole('heading', { name: 'The AI service is not configured' })).toBeVisible();
    // Settings are for administrators: the page says whom to ask, not which variables to set.
    expect(screen.getByText('Ask your administrator to connect an AI service.')).toBeVisible();
    expect(screen.queryByText(/GEM_AI_/)).toBeNull();
    await view.user.type(view.content, 'Nadal mogę pisać');
    expect(view.content).toHaveValue('Nadal mogę pisać');
  });

  it('says when the built-in stand-in answers, and marks each of its answers', async () => {
    server.state.aiStatus = { configured: true, provider: 'demo', model: 'gem-demo-stand-in', demo: true };
    server.reply({ kind: 'stream', events: [final('Przykładowy artykuł.', { demo: true })] });
    const view = await openArticle();
    expect(
      await screen.findByRole('heading', { name: 'Demo answers: no AI service is configured' }),
    ).toBeVisible();
    await fillAndGenerate(view);
    expect(await within(view.output).findByText('Demo answer: no AI service is configured')).toBeVisible();
    expect(within(view.output).getByText('Przykładowy artykuł.')).toBeVisible();
  });

  it('shows the notice when a generation answers 503 ai_not_configured', async () => {
    server.reply({ kind: 'error', status: 503, code: 'ai_not_configured', message: 'No AI service.' });
    const view = await openArticle();
    await fillAndGenerate(view);
    expect(await screen.findByRole('heading', { name: 'The AI service is not configured' })).toBeVisible();
    expect(within(view.output).getByRole('alert')).toHaveTextContent('Error generating article');
  });

  it('lists recent outputs and brings one back, inputs and output', async () => {
    const record: GenerationRecord = {
      id: 'g-7',
      generator: 'article',
      createdAt: '2026-11-20T09:05:00.000Z',
      input: { content: 'Stara treść', task: 'Stare zadanie' },
      output: { text: 'Stary **artykuł**.', shortened: false, truncated: false },
      outcome: 'succeeded',
    };
    server.state.history.article = [record];
    const view = await openArticle();
    const history = screen.getByRole('region', { name: 'Your recent outputs' });
    const entry = await within(history).findByRole('button', { name: /Stare zadanie/ });
    expect(entry).toHaveTextContent('Stary artykuł.');
    await view.user.click(entry);
    expect(view.content).toHaveValue('Stara treść');
    expect(view.task).toHaveValue('Stare zadanie');
    expect(within(view.output).getByText('artykuł').tagName).toBe('STRONG');
    expect(entry).toHaveAttribute('aria-current', 'true');
  });

  it('refreshes the recent outputs after a generation', async () => {
    const view = await openArticle();
    const history = screen.getByRole('region', { name: 'Your recent outputs' });
    await within(history).findByText(/Nothing yet/);
    server.state.history.article = [
      {
        id: 'g-8',
        generator: 'article',
        createdAt: new Date().toISOString(),
        input: { content: 'Raport o rynku', task: 'Napisz notkę' },
        output: { text: 'Odpowiedź testowa.', shortened: false, truncated: false },
        outcome: 'succeeded',
      },
    ];
    await fillAndGenerate(view);
    expect(await within(history).findByRole('button', { name: /Napisz notkę/ })).toBeVisible();
  });
});
