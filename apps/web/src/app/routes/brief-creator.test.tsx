import { briefChatFailureTexts, emptyBriefData } from '@gem/contracts/brief-creator';
import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { Toasts } from '@/app/toasts';
import { gate, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

import {
  assistant,
  brief,
  deltaEvents,
  chatResponse,
  failedTurn,
  fakeBriefApi,
  FINISHED_ID,
  finishedBrief,
  message,
  session,
  SESSION_ID,
  turn,
} from '@/features/brief-creator/testing/fake-brief-api';

const server = serveApi();
const api = fakeBriefApi(server);

/** The app at `path`, with the toast container the app's provider mounts. */
function renderWithToasts(path: string) {
  const view = renderRoute(path);
  render(<Toasts />);
  return view;
}

async function openBriefCreator(path = '/tools/brief-creator') {
  const view = renderWithToasts(path);
  await screen.findByRole('heading', { level: 1, name: 'Brief creator' });
  // Looked up when used: the chat tab may open later.
  const chat = () => screen.getByRole('region', { name: 'Chat with the assistant' });
  const preview = () => screen.getByRole('region', { name: 'Brief preview' });
  return {
    ...view,
    get chat() {
      return chat();
    },
    get preview() {
      return preview();
    },
    get log() {
      return within(chat()).getByRole('log', { name: 'Conversation' });
    },
    get input() {
      return within(chat()).getByLabelText('Your message');
    },
    get send() {
      return within(chat()).getByRole('button', { name: 'Send' });
    },
    action: (name: string) => within(chat()).getByRole('button', { name }),
    field: (label: string) => within(preview()).getByLabelText(label),
  };
}

type View = Awaited<ReturnType<typeof openBriefCreator>>;

/** Sends a message and waits for the turn to end. */
async function say(view: View, text: string) {
  await view.user.type(view.input, `${text}{Enter}`);
  await waitFor(() => expect(view.input).not.toHaveAttribute('aria-busy'));
  await waitFor(() => expect(within(view.chat).queryByText('The assistant is answering…')).toBeNull());
}

describe('Brief creator: the chat', () => {
  it('greets in the chosen language, with three tabs, an empty brief and the actions off', async () => {
    const view = await openBriefCreator();
    const tabs = within(screen.getByRole('tablist', { name: 'Brief creator' })).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'Brief Creator',
      'Brief Sessions',
      'Finished Briefs',
    ]);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(within(view.log).getByText(/I'm your brief assistant/)).toBeVisible();
    expect(within(view.preview).getByText('0 of 8 required')).toBeVisible();
    expect(within(view.preview).getByRole('button', { name: 'Export to Excel' })).toBeDisabled();
    expect(within(view.preview).getByRole('button', { name: 'Export to Word' })).toBeDisabled();
    for (const name of ['Generate target audience', 'Generate recommendations', 'Accept brief']) {
      expect(view.action(name)).toBeDisabled();
    }
    const language = within(view.chat).getByLabelText('Language');
    expect(language).toHaveValue('English');
    await view.user.selectOptions(language, 'Polish');
    expect(within(view.log).getByText(/Jestem Twoim asystentem briefu/)).toBeVisible();
    await view.user.selectOptions(language, 'German');
    expect(within(view.log).getByText(/Ich bin Ihr Briefing-Assistent/)).toBeVisible();
    // The greeting is the page's own: nothing went to the server.
    expect(api.state.calls).toEqual([]);
  });

  it('moves between the tabs with the arrow keys', async () => {
    const view = await openBriefCreator();
    const tab = (name: string) => screen.getByRole('tab', { name });
    await view.user.click(tab('Brief Creator'));
    await view.user.keyboard('{ArrowRight}');
    expect(tab('Brief Sessions')).toHaveFocus();
    expect(tab('Brief Sessions')).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('No unfinished sessions found.')).toBeVisible();
    await view.user.keyboard('{ArrowRight}');
    expect(tab('Finished Briefs')).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('No finished briefs found.')).toBeVisible();
    await view.user.keyboard('{ArrowRight}');
    expect(tab('Brief Creator')).toHaveFocus();
    await view.user.keyboard('{End}');
    expect(tab('Finished Briefs')).toHaveFocus();
  });

  it('sends with Enter, adds a line with Shift+Enter, ignores blank text and a busy chat, and streams the answer', async () => {
    const held = gate();
    const answer = 'Great start! Which channels will you use?';
    const proposed = brief({ campaignName: 'Spring Webinar', campaignType: ['Webinar'] });
    api.reply({
      kind: 'stream',
      events: [
        { type: 'session', sessionId: SESSION_ID },
        ...deltaEvents('Great start! Which'),
        { until: held.until },
        ...deltaEvents(' channels will you use?'),
        { type: 'final', response: chatResponse({ response: answer, proposedBriefData: proposed }) },
      ],
    });
    const view = await openBriefCreator();

    await view.user.type(view.input, '   {Enter}');
    expect(view.send).toBeDisabled();
    await view.user.type(view.input, 'Webinar {Shift>}{Enter}{/Shift}called Spring Webinar');
    expect(view.input).toHaveValue('   Webinar \ncalled Spring Webinar');
    await view.user.keyboard('{Enter}');

    // The user's message shows at once, the answer as it is written.
    expect(await within(view.log).findByText('Great start! Which')).toBeVisible();
    expect(within(view.log).getByText(/called Spring Webinar/)).toBeVisible();
    expect(view.input).toHaveValue('');
    expect(within(view.preview).getByLabelText('Campaign name')).toHaveValue('');

    // Busy: another Enter sends nothing and keeps the text.
    await view.user.type(view.input, 'Next question{Enter}');
    expect(view.input).toHaveValue('Next question');
    expect(view.send).toBeDisabled();
    expect(within(view.preview).getByLabelText('Campaign name')).toBeDisabled();

    held.open();
    expect(await within(view.log).findByText(answer)).toBeVisible();
    // The brief from `final`.
    await waitFor(() => expect(view.field('Campaign name')).toHaveValue('Spring Webinar'));
    expect(within(view.preview).getByRole('checkbox', { name: 'Webinar' })).toBeChecked();
    expect(within(view.preview).getByText('2 of 8 required')).toBeVisible();
    expect(within(view.preview).getByRole('button', { name: 'Export to Excel' })).toBeEnabled();
    expect(view.action('Accept brief')).toBeEnabled();

    expect(api.state.calls).toHaveLength(1);
    expect(api.state.calls[0]).toMatchObject({
      message: '   Webinar \ncalled Spring Webinar',
      sessionId: null,
      confirmJsonResponse: false,
      generateTargetAudience: false,
      generateRecommendations: false,
      language: 'English',
      currentBriefData: emptyBriefData(),
    });
  });

  it('sends a field corrected by hand as currentBriefData on the next turn', async () => {
    api.reply(
      turn({ proposedBriefData: brief({ campaignName: 'Spring Webinr', channels: ['LinkedIn'] }) }),
      turn({ response: 'Noted.' }),
    );
    const view = await openBriefCreator();
    await say(view, 'Spring Webinr on LinkedIn');
    await waitFor(() => expect(view.field('Campaign name')).toHaveValue('Spring Webinr'));

    await view.user.clear(view.field('Campaign name'));
    await view.user.type(view.field('Campaign name'), 'Spring Webinar');
    await view.user.click(within(view.preview).getByRole('checkbox', { name: 'Event' }));
    await view.user.type(view.field('Event date'), '2026-05-20');
    await view.user.type(within(view.preview).getByLabelText('Add to Channels'), 'Newsletter{Enter}');
    await view.user.type(within(view.preview).getByLabelText('Add to Business KPIs'), '20 leads');
    await view.user.click(within(view.preview).getAllByRole('button', { name: 'Add' })[2]!);
    await view.user.click(
      within(view.preview).getByRole('button', { name: 'Remove LinkedIn from Channels' }),
    );
    await view.user.selectOptions(within(view.chat).getByLabelText('Language'), 'German');

    await say(view, 'Corrected the name');
    expect(api.state.calls[1]).toMatchObject({
      sessionId: SESSION_ID,
      language: 'German',
      currentBriefData: {
        ...emptyBriefData(),
        campaignName: 'Spring Webinar',
        campaignType: ['Event'],
        eventDate: '2026-05-20',
        channels: ['Newsletter'],
        businessKPIs: ['20 leads'],
      },
    });
  });

  it('Generate target audience overwrites the field; Generate recommendations lists them in the chat', async () => {
    api.reply(
      turn({ proposedBriefData: brief({ campaignName: 'Spring Webinar', targetAudience: 'CFOs' }) }),
      turn({
        response: 'Finance directors of mid-sized Polish companies.',
        proposedBriefData: brief({ campaignName: 'Spring Webinar', targetAudience: 'CFOs' }),
        generatedTargetAudience: 'Finance directors of mid-sized Polish companies.',
      }),
      turn({
        response: '- Invite speakers early\n- Send two reminders',
        recommendations: ['Invite speakers early', 'Send two reminders'],
        proposedBriefData: null,
      }),
    );
    const view = await openBriefCreator();
    await say(view, 'Spring Webinar for CFOs');
    await waitFor(() => expect(view.field('Target audience')).toHaveValue('CFOs'));

    await view.user.click(view.action('Generate target audience'));
    await waitFor(() =>
      expect(view.field('Target audience')).toHaveValue('Finance directors of mid-sized Polish companies.'),
    );
    expect(api.state.calls[1]).toMatchObject({
      message: '',
      generateTargetAudience: true,
      sessionId: SESSION_ID,
    });

    await view.user.click(view.action('Generate recommendations'));
    const list = await within(view.log).findByRole('list', { name: 'Recommendations' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Invite speakers early', 'Send two reminders']);
    expect(api.state.calls[2]).toMatchObject({ generateRecommendations: true });
    // A turn without brief data leaves the brief as it was.
    expect(view.field('Campaign name')).toHaveValue('Spring Webinar');
  });

  it('Accept brief links to the finished brief, drops the session and starts a fresh chat', async () => {
    const done = brief({ campaignName: 'Spring Webinar' });
    api.reply(
      turn({ proposedBriefData: done, isAwaitingConfirmation: true }),
      turn({ response: 'Accepted.', proposedBriefData: done, finishedBriefId: FINISHED_ID }),
    );
    const view = await openBriefCreator();
    await say(view, 'That is all');
    api.state.sessions = [];
    api.state.finished = [finishedBrief({ data: done })];

    await view.user.click(view.action('Accept brief'));
    const link = await within(view.chat).findByRole('link', { name: 'View the finished brief' });
    expect(link).toHaveAttribute('href', `/tools/brief-creator/finished/${FINISHED_ID}`);
    expect(within(view.chat).getByRole('status')).toHaveTextContent(
      '“Spring Webinar” is now in Finished Briefs',
    );
    expect(api.state.calls[1]).toMatchObject({ confirmJsonResponse: true, sessionId: SESSION_ID });
    // A fresh chat: only the greeting, an empty brief, no session.
    expect(within(view.log).getAllByRole('listitem')).toHaveLength(1);
    expect(view.field('Campaign name')).toHaveValue('');
    expect(view.action('Accept brief')).toBeDisabled();

    await view.user.click(screen.getByRole('tab', { name: 'Finished Briefs' }));
    expect(await screen.findByRole('heading', { level: 3, name: 'Spring Webinar' })).toBeVisible();
  });

  it.each([
    ['a message', 'chat', null],
    ['target audience', 'targetAudience', 'Generate target audience'],
    ['recommendations', 'recommendations', 'Generate recommendations'],
    ['accepting', 'confirmation', 'Accept brief'],
  ] as const)(
    'shows the failure text of %s in the chat and keeps the message',
    async (_name, kind, button) => {
      api.reply(
        button ? turn() : failedTurn(briefChatFailureTexts.chat),
        failedTurn(briefChatFailureTexts[kind]),
      );
      const view = await openBriefCreator();
      await say(view, 'Spring Webinar');
      if (button) await view.user.click(view.action(button));
      const failure = await within(view.log).findByText(briefChatFailureTexts[kind]);
      expect(failure.closest('[data-failed]')).not.toBeNull();
      expect(within(view.log).getByText('Spring Webinar')).toBeVisible();
      // The session is kept: the next message continues it.
      await waitFor(() => expect(view.send).toHaveAttribute('type', 'submit'));
      api.reply(turn({ response: 'Back again.' }));
      await say(view, 'Once more');
      expect(api.state.calls.at(-1)).toMatchObject({ sessionId: SESSION_ID, message: 'Once more' });
    },
  );

  it('keeps the typed text when the server refuses before the stream (429 with a countdown, 503 not configured)', async () => {
    api.reply(
      { kind: 'error', status: 429, code: 'too_many_requests', headers: { 'retry-after': '30' } },
      { kind: 'error', status: 503, code: 'ai_not_configured' },
    );
    const view = await openBriefCreator();
    await view.user.type(view.input, 'My campaign{Enter}');
    const alert = await within(view.chat).findByRole('alert');
    expect(alert).toHaveTextContent('Your message was not sent.');
    expect(alert).toHaveTextContent(/You have sent too many requests\. Try again in (30|29) seconds\./);
    expect(view.input).toHaveValue('My campaign');
    expect(within(view.log).queryByText('My campaign')).toBeNull();
    expect(await screen.findByText('Error sending chat message')).toBeVisible();

    await view.user.click(view.send);
    await waitFor(() => expect(within(view.chat).getByRole('alert')).toHaveTextContent(/not configured/));
    expect(view.input).toHaveValue('My campaign');
    expect(await screen.findByRole('heading', { name: 'The AI service is not configured' })).toBeVisible();
    expect(api.state.calls).toHaveLength(2);
  });
});

describe('Brief creator: sessions and finished briefs', () => {
  it('resumes a session: its messages without system ones, the latest brief data, the chat tab', async () => {
    api.state.sessions = [
      session(SESSION_ID, [
        message('system', JSON.stringify(brief({ campaignName: 'Old name' })), 1),
        message('user', 'A webinar for CFOs', 2),
        message('assistant', assistant('What is it called?'), 3),
        message(
          'system',
          JSON.stringify(brief({ campaignName: 'Spring Webinar', channels: ['LinkedIn'] })),
          4,
        ),
        message('user', 'Recommend something', 5),
        message('assistant', assistant('- A\n- B', { recommendations: ['Invite early', 'Remind twice'] }), 6),
        message(
          'assistant',
          assistant('Przepraszamy…', {
            error: { code: 'ai_unavailable', message: briefChatFailureTexts.targetAudience },
          }),
          7,
        ),
      ]),
    ];
    const view = await openBriefCreator('/tools/brief-creator?tab=sessions');
    const card = await screen.findByRole('button', { name: /Resume Spring Webinar, session 3f2b8c1d/ });
    expect(card).toHaveTextContent('Mar 14, 2026');
    expect(card).toHaveTextContent('5 messages');
    await view.user.click(card);

    expect(screen.getByRole('tab', { name: 'Brief Creator' })).toHaveAttribute('aria-selected', 'true');
    expect(view.router.state.location.search).toBe('');
    const items = within(view.log).getAllByRole('listitem', { name: undefined });
    expect(within(view.log).getByText('A webinar for CFOs')).toBeVisible();
    expect(within(view.log).getByText('What is it called?')).toBeVisible();
    expect(within(view.log).getByRole('list', { name: 'Recommendations' })).toHaveTextContent('Invite early');
    expect(within(view.log).getByText(briefChatFailureTexts.targetAudience)).toBeVisible();
    expect(within(view.log).queryByText(/Old name|Przepraszamy/)).toBeNull();
    expect(items.length).toBeGreaterThan(0);
    expect(view.field('Campaign name')).toHaveValue('Spring Webinar');
    expect(within(view.preview).getByRole('textbox', { name: 'Channels, item 1' })).toHaveValue('LinkedIn');

    api.reply(turn());
    await say(view, 'Continue');
    expect(api.state.calls[0]).toMatchObject({ sessionId: SESSION_ID, message: 'Continue' });
  });

  it('says so in a toast when the session brief data cannot be read, and keeps an empty brief', async () => {
    api.state.sessions = [
      session(SESSION_ID, [message('system', '{"campaignName": 42}', 1), message('user', 'Hello there', 2)]),
    ];
    const view = await openBriefCreator('/tools/brief-creator?tab=sessions');
    await view.user.click(await screen.findByRole('button', { name: /Resume Untitled brief/ }));
    expect(await screen.findByText('Error fetching brief data from session messages')).toBeVisible();
    expect(within(view.log).getByText('Hello there')).toBeVisible();
    expect(view.field('Campaign name')).toHaveValue('');
  });

  it('toasts when the sessions cannot be fetched, and shows an empty list with a retry', async () => {
    api.state.sessions = { status: 403, code: 'forbidden' };
    renderWithToasts('/tools/brief-creator?tab=sessions');
    expect(await screen.findByText('Error fetching chat sessions')).toBeVisible();
    expect(screen.getByText('No unfinished sessions found.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
  });

  it('lists finished briefs as cards with their details link, and toasts a failure', async () => {
    api.state.finished = [
      finishedBrief({
        data: brief({
          campaignName: 'Spring Webinar',
          campaignType: ['Webinar', 'Email'],
          primaryObjective: 'Leads',
          channels: ['LinkedIn', 'Email'],
        }),
        messages: [
          message('system', '{}', 1),
          message('user', 'Hi', 2),
          message('assistant', assistant('Hello'), 3),
        ],
      }),
    ];
    renderRoute('/tools/brief-creator?tab=finished');
    const card = await screen.findByRole('article', { name: 'Spring Webinar' });
    expect(card).toHaveTextContent('a1b2c3d4');
    expect(card).toHaveTextContent('Mar 14, 2026');
    expect(card).toHaveTextContent('2 messages');
    expect(card).toHaveTextContent('Webinar, Email');
    expect(card).toHaveTextContent('Leads');
    expect(card).toHaveTextContent('LinkedIn, Email');
    expect(within(card).getByRole('link', { name: /View Details/ })).toHaveAttribute(
      'href',
      `/tools/brief-creator/finished/${FINISHED_ID}`,
    );
  });

  it('toasts when the finished briefs cannot be fetched', async () => {
    api.state.finished = { status: 403, code: 'forbidden' };
    renderWithToasts('/tools/brief-creator?tab=finished');
    expect(await screen.findByText('Error fetching finished briefs')).toBeVisible();
    expect(screen.getByText('No finished briefs found.')).toBeVisible();
  });
});

describe('Finished brief details', () => {
  it('shows every field, "Not specified" for the missing ones, and the conversation without system messages', async () => {
    api.state.finished = [
      finishedBrief({
        data: brief({
          campaignName: 'Spring Webinar',
          campaignType: ['Webinar'],
          channels: ['LinkedIn', 'Newsletter'],
          eventDate: '2026-05-20',
        }),
        messages: [
          message('user', 'A webinar', 1),
          message('system', JSON.stringify(brief({ campaignName: 'Spring Webinar' })), 2),
          message('assistant', assistant('Got it, **thanks**.'), 3),
        ],
      }),
    ];
    renderRoute(`/tools/brief-creator/finished/${FINISHED_ID}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring Webinar' })).toBeVisible();
    expect(screen.getByText(FINISHED_ID)).toBeVisible();
    expect(screen.getByText('Mar 14, 2026', { exact: false })).toBeVisible();
    const fields = screen.getByRole('region', { name: 'Brief' });
    const row = (label: string) => within(fields).getByText(label, { selector: 'dt' }).parentElement!;
    expect(row('Campaign type')).toHaveTextContent('Webinar');
    expect(row('Event date')).toHaveTextContent('2026-05-20');
    expect(
      within(row('Channels'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['LinkedIn', 'Newsletter']);
    expect(row('Budget')).toHaveTextContent('Not specified');
    expect(within(fields).getAllByText('Not specified')).toHaveLength(11);
    const conversation = screen.getByRole('region', { name: 'Conversation' });
    expect(within(conversation).getByText('A webinar')).toBeVisible();
    expect(within(conversation).getByText('thanks').tagName).toBe('STRONG');
    expect(conversation).not.toHaveTextContent('campaignName');
    expect(screen.getByRole('button', { name: 'Export to Excel' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Export to Word' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Back to finished briefs' })).toHaveAttribute(
      'href',
      '/tools/brief-creator?tab=finished',
    );
  });

  it("says 'Brief not found.' for a missing or foreign id", async () => {
    renderWithToasts('/tools/brief-creator/finished/not-mine');
    expect(await screen.findByRole('heading', { level: 1, name: 'Brief not found.' })).toBeVisible();
    expect(screen.queryByText('Error fetching finished brief details')).toBeNull();
  });

  it('toasts other failures', async () => {
    server.on('GET', '/api/brief/finished-briefs/*', (_req, _raw, res) =>
      res
        .writeHead(403, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'forbidden', message: 'No.' } })),
    );
    renderWithToasts(`/tools/brief-creator/finished/${FINISHED_ID}`);
    expect(await screen.findByText('Error fetching finished brief details')).toBeVisible();
  });
});
