import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { final, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

import { mailtoHref } from './mailto';

const server = serveApi();

async function openTeaserGenerator() {
  const view = renderRoute('/tools/teaser-generator');
  await screen.findByRole('heading', { level: 1, name: 'Teaser generator' });
  return {
    ...view,
    content: screen.getByLabelText('Paste the base content'),
    generate: screen.getByRole('button', { name: 'Generate' }),
    output: screen.getByRole('region', { name: 'Check the output' }),
  };
}

describe('Teaser generator page', () => {
  it('generates a teaser to copy or send via email (a mailto: link with the teaser as the body)', async () => {
    const teaser = 'Czy Twoja firma jest gotowa na AI? Sprawdź & przeczytaj #raport\nWięcej w środku.';
    server.reply({ kind: 'stream', events: [final(teaser)] });
    const view = await openTeaserGenerator();
    await view.user.type(view.content, 'Raport o AI');
    await view.user.click(view.generate);
    await within(view.output).findByText(/Czy Twoja firma/);

    const send = within(view.output).getByRole('link', { name: 'Send via email' });
    const href = send.getAttribute('href') ?? '';
    expect(href.startsWith('mailto:?body=')).toBe(true);
    expect(decodeURIComponent(href.slice('mailto:?body='.length))).toBe(teaser);
    expect(new URL(href).searchParams.get('body')).toBe(teaser);

    await view.user.click(within(view.output).getByRole('button', { name: 'Copy to clipboard' }));
    expect(await navigator.clipboard.readText()).toBe(teaser);
  });

  it('says "Error generating teaser" on a failure and keeps the content', async () => {
    server.reply({ kind: 'error', status: 500, code: 'internal_error' });
    const view = await openTeaserGenerator();
    await view.user.type(view.content, 'Treść');
    await view.user.click(view.generate);
    expect(await within(view.output).findByRole('alert')).toHaveTextContent('Error generating teaser');
    expect(view.content).toHaveValue('Treść');
  });

  it('encodes everything that could end the body early', () => {
    expect(mailtoHref('a&b=c?d#e f\n')).toBe('mailto:?body=a%26b%3Dc%3Fd%23e%20f%0A');
  });
});
