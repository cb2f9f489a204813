import { campaignAudienceBuilderPaths, reportQuerySchema } from '@gem/contracts/campaign-audience-builder';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { json, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

import { catchDownloads } from '@/testing/downloads';

import { reportPageUrl } from '../report-links';
import { CAMPAIGN_ID, reportResponse, segmentsResponse } from '../testing/fixtures';

type Reply = { status?: number; body: unknown };

let reportReply: (page: number) => Reply;
/** The report requests' queries. */
let asked: URLSearchParams[];
/** The CSV requests' queries. */
let csvAsked: URLSearchParams[];

const server = serveApi();

const CSV = 'Contact ID,Name,E-mail\r\n003Qy0000000Cont01,Contact 1,contact.1@bank-1.example\r\n';

beforeEach(() => {
  asked = [];
  csvAsked = [];
  reportReply = (page) => ({ body: reportResponse(page) });
  server.on('GET', campaignAudienceBuilderPaths.report, (req, _body, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    asked.push(query);
    // As the real route does: the contract's schema checks the query first.
    const parsed = reportQuerySchema.safeParse({
      ...Object.fromEntries(query),
      subIndustry: query.getAll('subIndustry'),
      role: query.getAll('role'),
      title: query.getAll('title'),
      workArea: query.getAll('workArea'),
      employees: query.getAll('employees'),
      revenue: query.getAll('revenue'),
      pastCampaign: query.getAll('pastCampaign'),
    });
    if (!parsed.success) {
      return json(res, 400, {
        error: {
          code: 'validation_failed',
          message: 'The request has invalid fields.',
          issues: parsed.error.issues.map((i) => ({ path: `query.${i.path.join('.')}`, message: i.message })),
        },
      });
    }
    const { status = 200, body } = reportReply(parsed.data.page);
    json(res, status, body);
  });
  server.on('GET', campaignAudienceBuilderPaths.reportCsv, (req, _body, res) => {
    csvAsked.push(new URL(req.url ?? '/', 'http://x').searchParams);
    res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' }).end(CSV);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

const reportPath = reportPageUrl('new-prospects', CAMPAIGN_ID, segmentsResponse());

async function renderReport(path = reportPath) {
  const view = renderRoute(path);
  await screen.findByRole('heading', { level: 1, name: 'New prospects in the segment' });
  return view;
}

describe('the report page', () => {
  it('shows the report, its campaign, the segment as chips, the count and the first page of contacts', async () => {
    await renderReport();
    expect(asked[0]?.toString()).toBe(`${new URL(reportPath, 'http://x').searchParams}&page=1`);
    expect(screen.getByText('Contacts in the segment who are not members yet.')).toBeVisible();
    expect(screen.getByText('Sample data')).toBeVisible();
    expect(screen.getByText('Spring CFO Webinar')).toBeVisible();
    expect(screen.getByText('120 contacts')).toBeVisible();
    expect(document.title).toBe('New prospects in the segment · GEM');

    const segment = screen.getByRole('region', { name: 'Segment' });
    expect(
      within(segment)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Commercial Banking',
      'Insurance',
      'Finance',
      'Chief Financial Officer',
      'Finance Director',
      '50–249 employees',
      '250–999 employees',
    ]);
    expect(within(segment).getByText('Company size')).toBeVisible();

    const table = screen.getByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Name',
      'E-mail',
      'Title',
      'Account',
      'Company size',
      'Industry',
      'Last campaign response',
    ]);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(50);
    expect(rows[0]).toHaveTextContent('Contact 1');
    // The CRM's ids and the e-mail, for an e-mail tool or the CRM: the contact's under the name,
    // the account's under the account, the address as a mail link.
    const cells = within(rows[0]!).getAllByRole('cell');
    expect(within(rows[0]!).getByRole('rowheader')).toHaveTextContent('Contact 1003Qy0000000Cont01');
    expect(within(cells[0]!).getByRole('link', { name: 'contact.1@bank-1.example' })).toHaveAttribute(
      'href',
      'mailto:contact.1@bank-1.example',
    );
    expect(cells[2]).toHaveTextContent('Bank 1001Qy0000000Acct01');
    // The account's size as the CRM has it.
    expect(cells[3]).toHaveTextContent('121 employees · PLN 49M revenue');
    expect(within(rows[3]!).getAllByRole('cell')[3]).toHaveTextContent(/^124 employees$/);
    // A contact without one says so.
    expect(within(rows[2]!).getAllByRole('cell')[0]).toHaveTextContent('No e-mail in the CRM');
    expect(rows[0]).toHaveTextContent('Never responded');
    expect(rows[1]).toHaveTextContent('Autumn CFO RoundtableOct 2, 2025');
    expect(screen.getByText('1–50 of 120')).toBeVisible();
  });

  it('pages through the contacts, keeping the page in the address', async () => {
    const { user, router } = await renderReport();
    const previous = screen.getByRole('button', { name: 'Previous' });
    const next = screen.getByRole('button', { name: 'Next' });
    expect(previous).toBeDisabled();
    expect(screen.getByText('Page 1 of 3')).toBeVisible();

    await user.click(next);
    await screen.findByText('51–100 of 120');
    expect(asked.at(-1)?.get('page')).toBe('2');
    expect(router.state.location.search).toContain('page=2');
    expect(screen.getByText('Page 2 of 3')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('101–120 of 120');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(21);

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByText('51–100 of 120');
  });

  it('downloads the whole report as a CSV named after it, with the same query', async () => {
    const saved = catchDownloads();
    const { user } = await renderReport();
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('new-prospects-in-the-segment.csv');
    expect(await saved[0]?.blob.text()).toBe(CSV);
    expect(csvAsked[0]?.toString()).toBe(new URL(reportPath, 'http://x').searchParams.toString());
  });

  it('says why a CSV was refused when the user already has reports running', async () => {
    const words =
      'You already have 2 reports or CSV exports running. Wait for one to finish, then try again.';
    server.on('GET', campaignAudienceBuilderPaths.reportCsv, (_req, _body, res) => {
      res.setHeader('retry-after', '5');
      json(res, 429, { error: { code: 'too_many_requests', message: words } });
    });
    const { user } = await renderReport();
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText(words)).toBeVisible();
  });

  it('says when the report is empty, and offers no CSV', async () => {
    reportReply = (page) => ({ body: reportResponse(page, { total: 0, contacts: [] }) });
    await renderReport();
    expect(screen.getByText('No contact matches this report right now.')).toBeVisible();
    expect(screen.getByText('0 contacts')).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
  });

  it('explains a bad link with the server’s words', async () => {
    renderRoute('/tools/campaign-audience-builder/report?type=best&campaignId=short');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { level: 1 })).toHaveTextContent(
      'This report link is not valid',
    );
    expect(alert).toHaveTextContent('The request has invalid fields.');
    expect(alert).toHaveTextContent(
      'The report type must be one of new-prospects, follow-up, past-responders.',
    );
    expect(alert).toHaveTextContent('Campaign ID must be exactly 18 characters');
    expect(within(alert).getByRole('link', { name: 'Back to the audience builder' })).toHaveAttribute(
      'href',
      '/tools/campaign-audience-builder',
    );
  });

  it('says when GEM does not serve the report (a Salesforce-configured GEM)', async () => {
    const message = 'Reports open in Salesforce: GEM is connected to Salesforce, not to its demo CRM.';
    reportReply = () => ({ status: 404, body: { error: { code: 'not_found', message } } });
    renderRoute(reportPath);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This report is not available');
    expect(alert).toHaveTextContent(message);
    expect(asked).toHaveLength(1);
  });
});
