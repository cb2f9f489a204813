import {
  AUDIENCE_BUILDER_ERROR,
  CAMPAIGN_ID_ERROR,
  campaignAudienceBuilderPaths,
  generateSegmentsRequestSchema,
  MANUAL_TAB_TEXT,
  reportTypeLabels,
  sanitizeCampaignId,
} from '@gem/contracts/campaign-audience-builder';
import { act, screen, waitFor, within } from '@testing-library/react';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { gate, json, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

import { CAMPAIGN_ID, campaigns, segmentsResponse } from '../testing/fixtures';

type Reply = { status?: number; body: unknown; headers?: Record<string, string>; until?: Promise<unknown> };

let generateReply: () => Reply;
/** The generate requests' bodies, as sent. */
let sent: unknown[];
/** The campaign searches, as their `q`. */
let searches: string[];

const server = serveApi();

beforeEach(() => {
  sent = [];
  searches = [];
  generateReply = () => ({ body: segmentsResponse() });
  server.on('GET', campaignAudienceBuilderPaths.campaigns, (req, _body, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q') ?? '';
    searches.push(q);
    const list = campaigns.campaigns.filter(
      (c) => q === '' || c.name.toLowerCase().includes(q.toLowerCase()) || c.id.startsWith(q),
    );
    json(res, 200, { ...campaigns, campaigns: list });
  });
  server.on('POST', campaignAudienceBuilderPaths.generate, async (_req, raw, res) => {
    const body: unknown = JSON.parse(raw);
    sent.push(body);
    // As the real route does: the contract's schema checks the request first.
    const parsed = generateSegmentsRequestSchema.safeParse(body);
    if (!parsed.success) {
      return json(res, 400, { error: { code: 'validation_failed', message: parsed.error.message } });
    }
    const { status = 200, body: answer, headers, until } = generateReply();
    if (until) await until;
    json(res, status, answer, headers);
  });
});

const path = '/tools/campaign-audience-builder';
const idField = () => screen.getByRole('textbox', { name: 'Campaign ID' });
const goalField = () => screen.getByRole('textbox', { name: 'Marketing Goal' });
const generateButton = () => screen.getByRole('button', { name: 'Generate Segments' });
const results = () => screen.getByRole('region', { name: 'Segments' });

async function renderPage() {
  const view = renderRoute(path);
  await screen.findByRole('heading', { level: 1, name: 'Campaign audience builder' });
  return view;
}

async function fillAndGenerate(
  view: Awaited<ReturnType<typeof renderPage>>,
  goal = 'More CFOs at the webinar',
) {
  await view.user.type(idField(), CAMPAIGN_ID);
  await view.user.type(goalField(), goal);
  await view.user.click(generateButton());
}

describe('the Campaign ID sanitizer', () => {
  it('keeps letters and digits only, at most 18, in their order (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (raw) => {
        const clean = sanitizeCampaignId(raw);
        expect(clean).toMatch(/^[A-Z0-9]{0,18}$/i);
        expect(clean).toBe(
          [...raw]
            .filter((c) => /^[A-Z0-9]$/i.test(c))
            .join('')
            .slice(0, 18),
        );
        expect(sanitizeCampaignId(clean)).toBe(clean);
      }),
    );
  });

  it('cleans what is typed and what is pasted into the field', async () => {
    const view = await renderPage();
    await view.user.type(idField(), '701-Qy 00000_AbC');
    expect(idField()).toHaveValue('701Qy00000AbC');
    await view.user.clear(idField());
    await view.user.click(idField());
    await view.user.paste(' 701Qy00000AbCdEfGH-extra characters ');
    expect(idField()).toHaveValue(CAMPAIGN_ID);
    expect(screen.getByText('18 / 18')).toBeInTheDocument();
  });
});

describe('the tabs', () => {
  it('shows Automatic first; Manual says it is coming; arrow keys move between them', async () => {
    const view = await renderPage();
    const tabs = within(screen.getByRole('tablist', { name: 'Audience builder' })).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Automatic', 'Manual']);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Automatic' })).toBeVisible();

    await view.user.type(idField(), 'abc');
    tabs[0]?.focus();
    await view.user.keyboard('{ArrowRight}');
    expect(tabs[1]).toHaveAttribute('aria-selected', 'true');
    expect(tabs[1]).toHaveFocus();
    expect(screen.getByRole('tabpanel', { name: 'Manual' })).toHaveTextContent(MANUAL_TAB_TEXT);

    // Back to Automatic: what was typed is still there.
    await view.user.keyboard('{ArrowLeft}');
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(idField()).toHaveValue('abc');
  });
});

describe('the form', () => {
  it('explains both required fields and sends nothing while they are wrong', async () => {
    const view = await renderPage();
    await view.user.click(generateButton());
    expect(screen.getByText(CAMPAIGN_ID_ERROR)).toBeVisible();
    expect(screen.getByText('Enter the marketing goal.')).toBeVisible();
    expect(idField()).toHaveAttribute('aria-invalid', 'true');
    expect(idField()).toHaveFocus();

    // 17 characters is not 18; a blank goal is no goal.
    await view.user.type(idField(), CAMPAIGN_ID.slice(0, 17));
    await view.user.type(goalField(), '   ');
    await view.user.click(generateButton());
    expect(screen.getByText(CAMPAIGN_ID_ERROR)).toBeVisible();
    expect(screen.getByText('Enter the marketing goal.')).toBeVisible();

    await view.user.type(idField(), 'H');
    expect(screen.queryByText(CAMPAIGN_ID_ERROR)).toBeNull();
    await view.user.click(generateButton());
    expect(goalField()).toHaveFocus();
    expect(sent).toEqual([]);
  });

  it('says an id of the wrong length once the field is left', async () => {
    const view = await renderPage();
    await view.user.type(idField(), 'abc');
    expect(screen.queryByText(CAMPAIGN_ID_ERROR)).toBeNull();
    await view.user.tab();
    expect(screen.getByText(CAMPAIGN_ID_ERROR)).toBeVisible();
  });
});

describe('the campaign picker', () => {
  it('lists recent campaigns with type and date, says they are samples, searches, and fills the id', async () => {
    const view = await renderPage();
    const picker = screen.getByRole('region', { name: 'Recent campaigns' });
    const list = await within(picker).findByRole('list', { name: 'Recent campaigns' });
    expect(within(picker).getByText('Sample data')).toBeVisible();
    const options = within(list).getAllByRole('button');
    expect(options).toHaveLength(3);
    expect(options[0]).toHaveTextContent('Spring CFO Webinar');
    expect(options[0]).toHaveTextContent('Webinar');
    expect(options[0]).toHaveTextContent('Mar 12, 2026');
    expect(options[0]).toHaveTextContent(CAMPAIGN_ID);
    expect(searches[0]).toBe('');

    await view.user.type(within(picker).getByRole('searchbox', { name: 'Search campaigns' }), 'esg');
    await waitFor(() => expect(within(picker).getAllByRole('button')).toHaveLength(1));
    expect(searches.at(-1)).toBe('esg');
    await view.user.clear(within(picker).getByRole('searchbox'));
    await waitFor(() => expect(within(picker).getAllByRole('button')).toHaveLength(3));

    const spring = within(picker).getByRole('button', { name: /Spring CFO Webinar/ });
    await view.user.click(spring);
    expect(idField()).toHaveValue(CAMPAIGN_ID);
    expect(spring).toHaveAttribute('aria-pressed', 'true');
  });

  it('says when no campaign matches', async () => {
    const view = await renderPage();
    const picker = screen.getByRole('region', { name: 'Recent campaigns' });
    await within(picker).findByRole('list');
    await view.user.type(within(picker).getByRole('searchbox'), 'nothing like it');
    expect(await within(picker).findByText('No campaign matches “nothing like it”.')).toBeVisible();
  });
});

describe('generating segments', () => {
  it('shows the loading state, then the results; sends the trimmed goal', async () => {
    const hold = gate();
    generateReply = () => ({ body: segmentsResponse(), until: hold.until });
    const view = await renderPage();
    await fillAndGenerate(view, '  More CFOs at the webinar  ');

    expect(await within(results()).findByText(/^Generating segments…/)).toBeVisible();
    expect(within(results()).getByRole('progressbar', { name: 'Generating segments' })).toBeInTheDocument();
    expect(generateButton()).toBeDisabled();
    hold.open();

    await within(results()).findByRole('heading', { level: 2, name: 'Spring CFO Webinar' });
    expect(sent).toEqual([{ campaignId: CAMPAIGN_ID, topic: 'More CFOs at the webinar' }]);
    expect(generateButton()).toBeEnabled();
  });

  it('shows the facts, the analysis, the segment, the recommended campaigns and the reports by type', async () => {
    const view = await renderPage();
    await fillAndGenerate(view);
    const area = results();
    await within(area).findByRole('heading', { level: 2, name: 'Spring CFO Webinar' });

    // Headline numbers.
    expect(within(area).getByText('Members', { selector: 'dt' }).nextSibling).toHaveTextContent('240');
    expect(within(area).getByText('Responders', { selector: 'dt' }).nextSibling).toHaveTextContent('60');
    expect(within(area).getByText('Response rate').nextSibling).toHaveTextContent('25.0%');
    expect(within(area).getAllByText('Sample data').length).toBeGreaterThan(0);

    // The charts, each with its table for screen readers.
    const bySub = await within(area).findByRole('figure', { name: 'Members by sub-industry' });
    const rows = within(within(bySub).getByRole('table')).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'Sub-industryRespondedDid not respondTotal',
      'Commercial Banking305080',
      'Insurance124052',
    ]);
    expect(within(area).getByRole('figure', { name: 'Members by title' })).toBeInTheDocument();
    // The past campaigns compared.
    const past = within(area).getByRole('region', { name: 'Table of past campaigns' });
    expect(within(past).getByRole('row', { name: /Autumn CFO Roundtable/ })).toHaveTextContent('40.0%');

    // The analysis, in paragraphs (its figures' marks: ai-analysis.test.tsx).
    const analysis = within(area).getByRole('region', { name: 'AI analysis' });
    expect(within(analysis).getByText(/^W podbranży Commercial Banking odpowiedziało/)).toBeVisible();
    expect(within(analysis).getByText('Wcześniejsze kampanie potwierdzają ten kierunek.')).toBeVisible();
    expect(within(analysis).getByText(/^Zaproś dyrektorów finansowych banków na LinkedIn/)).toBeVisible();

    // The segment as chips; a list copies as the server joined it.
    const titles = within(area).getByRole('list', { name: /^Titles/ });
    expect(
      within(titles)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Chief Financial Officer', 'Finance Director']);
    const titlesSection = within(area).getByRole('region', { name: /^Titles/ });
    await view.user.click(within(titlesSection).getByRole('button', { name: 'Copy list' }));
    expect(await navigator.clipboard.readText()).toBe('Chief Financial Officer, Finance Director');
    expect(
      within(within(area).getByRole('region', { name: /^Work areas/ })).getByText(/does not narrow/),
    ).toBeVisible();

    // Recommended past campaigns.
    const recommended = within(area).getByRole('region', { name: 'Past campaigns to learn from' });
    expect(recommended).toHaveTextContent('Autumn CFO Roundtable');
    expect(recommended).toHaveTextContent('Lead generation');
    expect(recommended).toHaveTextContent('Advisory');

    // Reports grouped by type, in the labels' order, with their reach.
    const reports = within(area).getByRole('region', { name: 'Reports' });
    const groups = within(reports)
      .getAllByRole('heading', { level: 4 })
      .map((h) => h.textContent);
    expect(groups).toEqual(Object.values(reportTypeLabels));
    const prospects = within(reports).getByRole('article', { name: 'New prospects in the segment' });
    expect(prospects).toHaveTextContent('1,234 contacts');
    expect(
      within(reports).getByRole('article', { name: 'Follow-up: members who have not responded' }),
    ).toHaveTextContent('37 contacts');
    expect(within(reports).getByRole('article', { name: 'Responders to past campaigns' })).toHaveTextContent(
      'Reach not counted',
    );
  });

  it('shows company size: the members by band as charts, and the segment’s bands by name', async () => {
    const view = await renderPage();
    await fillAndGenerate(view);
    const area = results();
    const bySize = await within(area).findByRole('figure', { name: 'Members by company size' });
    expect(
      within(within(bySize).getByRole('table'))
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual([
      'EmployeesRespondedDid not respondTotal',
      '1–49 employees43640',
      '50–249 employees306090',
      '250–999 employees184260',
      '1,000+ employees84250',
    ]);
    const byRevenue = within(area).getByRole('figure', { name: 'Members by annual revenue' });
    expect(within(byRevenue).getByRole('table')).toHaveTextContent('PLN 10M–50M');

    const size = within(area).getByRole('list', { name: /^Company size/ });
    expect(
      within(size)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['50–249 employees', '250–999 employees']);
    await view.user.click(
      within(within(area).getByRole('region', { name: /^Company size/ })).getByRole('button', {
        name: 'Copy list',
      }),
    );
    expect(await navigator.clipboard.readText()).toBe('50–249 employees, 250–999 employees');
    // The CRM has revenue, the segment does not narrow by it.
    expect(
      within(within(area).getByRole('region', { name: /^Annual revenue/ })).getByText(/does not narrow/),
    ).toBeVisible();

    // A CRM that keeps no such numbers: no size chart, no size dimension.
    generateReply = () => ({
      body: segmentsResponse({
        employeeBands: [],
        facts: { ...segmentsResponse().facts, byEmployees: [], byRevenue: [], revenueCurrency: null },
      }),
    });
    await view.user.click(generateButton());
    await waitFor(() =>
      expect(within(area).queryByRole('figure', { name: 'Members by company size' })).toBeNull(),
    );
    await within(area).findByRole('figure', { name: 'Members by sub-industry' });
    expect(within(area).queryByRole('region', { name: /^Company size/ })).toBeNull();
    expect(within(area).queryByRole('region', { name: /^Annual revenue/ })).toBeNull();
  });

  it('copies an absolute report URL, says Copied! for 2 s, and opens a report in a new tab', async () => {
    const view = await renderPage();
    await fillAndGenerate(view);
    const reports = await screen.findByRole('region', { name: 'Reports' });
    const prospects = within(reports).getByRole('article', { name: 'New prospects in the segment' });
    const expected = new URL(segmentsResponse().reports[1]!.url, window.location.origin).href;
    expect(expected.startsWith(`${window.location.origin}/tools/campaign-audience-builder/report?`)).toBe(
      true,
    );

    // Open Report: a new tab, no way back to GEM.
    const open = within(prospects).getByRole('link', { name: /^Open Report/ });
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('rel', 'noopener noreferrer');
    expect(new URL(open.getAttribute('href') ?? '', window.location.origin).href).toBe(expected);
    // A Salesforce report opens at its own address.
    const salesforce = within(reports).getByRole('article', { name: 'Responders to past campaigns' });
    expect(within(salesforce).getByRole('link', { name: /^Open Report/ })).toHaveAttribute(
      'href',
      'https://example.my.salesforce.com/lightning/r/Report/00O000000000001/view',
    );

    // Copy URL: the clipboard holds the absolute address; 'Copied!' shows for 2 s.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    const copy = within(prospects).getByRole('button', { name: 'Copy URL' });
    await view.user.click(copy);
    expect(await navigator.clipboard.readText()).toBe(expected);
    expect(copy).toHaveTextContent('Copied!');
    act(() => vi.advanceTimersByTime(1_900));
    expect(copy).toHaveTextContent('Copied!');
    act(() => vi.advanceTimersByTime(200));
    expect(copy).toHaveTextContent('Copy URL');
  });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('a failed generation', () => {
  async function failWith(reply: Reply) {
    generateReply = () => reply;
    const view = await renderPage();
    await fillAndGenerate(view);
    return within(results()).findByRole('alert');
  }

  it('shows the spec text for a server failure and keeps the inputs', async () => {
    const alert = await failWith({ status: 500, body: { error: { code: 'internal', message: 'Boom.' } } });
    expect(alert).toHaveTextContent(AUDIENCE_BUILDER_ERROR);
    expect(alert).not.toHaveTextContent('Boom.');
    expect(idField()).toHaveValue(CAMPAIGN_ID);
    expect(goalField()).toHaveValue('More CFOs at the webinar');
    expect(generateButton()).toBeEnabled();
  });

  it('shows the server’s words for an unknown campaign', async () => {
    const message = `No campaign has the id ${CAMPAIGN_ID}.`;
    const alert = await failWith({ status: 404, body: { error: { code: 'not_found', message } } });
    expect(alert).toHaveTextContent(message);
    expect(alert).not.toHaveTextContent(AUDIENCE_BUILDER_ERROR);
  });

  it('shows the AI tools’ notice when no AI service is configured', async () => {
    const alert = await failWith({
      status: 503,
      body: { error: { code: 'ai_not_configured', message: 'No AI service.' } },
    });
    expect(alert).toHaveTextContent('The AI service is not configured.');
    expect(await screen.findByRole('heading', { name: 'The AI service is not configured' })).toBeVisible();
  });

  it('says why to wait after too many requests', async () => {
    const alert = await failWith({
      status: 429,
      body: { error: { code: 'too_many_requests', message: 'Slow down.' } },
      headers: { 'retry-after': '20' },
    });
    expect(alert).toHaveTextContent(AUDIENCE_BUILDER_ERROR);
    expect(alert).toHaveTextContent('You have sent too many requests. Try again in 20 seconds.');
  });

  it('shows the notice at once when the AI status says so', async () => {
    server.state.aiStatus = { configured: false, provider: null, model: null };
    await renderPage();
    expect(await screen.findByRole('heading', { name: 'The AI service is not configured' })).toBeVisible();
  });
});
