import { briefChatFailureTexts, emptyBriefData } from '@gem/contracts/brief-creator';
import { render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';

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

// The chat this browser had open last is remembered (issue 27): each test starts with none.
beforeEach(() => localStorage.clear());

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

  it("Generate target audience proposes beside the user's own text: Apply replaces it, Keep mine keeps it (issue 27)", async () => {
    const own = 'manufacturing companies, 250–1,000 employees';
    const proposal = 'Finance directors of mid-sized Polish companies.';
    api.reply(
      turn({ proposedBriefData: brief({ campaignName: 'Spring Webinar', targetAudience: own }) }),
      turn({
        response: proposal,
        proposedBriefData: brief({ campaignName: 'Spring Webinar', targetAudience: own }),
        generatedTargetAudience: proposal,
      }),
      turn({
        response: 'Decision makers in manufacturing.',
        proposedBriefData: brief({ campaignName: 'Spring Webinar', targetAudience: proposal }),
        generatedTargetAudience: 'Decision makers in manufacturing.',
      }),
    );
    const view = await openBriefCreator();
    await say(view, 'Spring Webinar for manufacturers');
    await waitFor(() => expect(view.field('Target audience')).toHaveValue(own));

    await view.user.click(view.action('Generate target audience'));
    const bubble = (await within(view.log).findByText('Proposed target audience')).closest('li')!;
    // The proposal beside the user's text; the field keeps the user's text until they choose.
    expect(within(bubble).getByRole('region', { name: 'Proposal' })).toHaveTextContent(proposal);
    expect(within(bubble).getByRole('region', { name: 'Your text' })).toHaveTextContent(own);
    expect(view.field('Target audience')).toHaveValue(own);
    expect(api.state.calls[1]).toMatchObject({
      message: '',
      generateTargetAudience: true,
      sessionId: SESSION_ID,
    });

    await view.user.click(within(bubble).getByRole('button', { name: 'Apply' }));
    expect(view.field('Target audience')).toHaveValue(proposal);
    expect(within(bubble).getByText('In the brief as its target audience.')).toBeVisible();
    expect(within(bubble).queryByRole('button', { name: 'Apply' })).toBeNull();
    // Applied is a correction by hand: saved to the session at once, so a reload shows it.
    await waitFor(() =>
      expect(api.state.saves.at(-1)).toMatchObject({
        sessionId: SESSION_ID,
        briefData: { targetAudience: proposal },
      }),
    );

    // A second proposal: Keep mine leaves the field as it is.
    await view.user.click(view.action('Generate target audience'));
    await waitFor(() => expect(within(view.log).getAllByText('Proposed target audience')).toHaveLength(2));
    const second = within(view.log).getAllByText('Proposed target audience')[1]!.closest('li')!;
    await view.user.click(await within(second).findByRole('button', { name: 'Keep mine' }));
    expect(within(second).getByText('You kept your text.')).toBeVisible();
    expect(view.field('Target audience')).toHaveValue(proposal);
  });

  it('Generate target audience fills an empty field at once', async () => {
    const proposal = 'Finance directors of mid-sized Polish companies.';
    api.reply(
      turn({ proposedBriefData: brief({ campaignName: 'Spring Webinar' }) }),
      turn({
        response: proposal,
        proposedBriefData: brief({ campaignName: 'Spring Webinar', targetAudience: proposal }),
        generatedTargetAudience: proposal,
      }),
    );
    const view = await openBriefCreator();
    await say(view, 'Spring Webinar');
    await view.user.click(view.action('Generate target audience'));
    await waitFor(() => expect(view.field('Target audience')).toHaveValue(proposal));
    const bubble = within(view.log).getByText('Proposed target audience').closest('li')!;
    expect(within(bubble).getByText('In the brief as its target audience.')).toBeVisible();
    expect(within(bubble).queryByRole('button', { name: 'Apply' })).toBeNull();
  });

  it('Generate recommendations lists them in the chat, each one a click from the brief (issue 27)', async () => {
    api.reply(
      turn({ proposedBriefData: brief({ campaignName: 'Spring Webinar' }) }),
      turn({
        response: '- Invite speakers early\n- Send two reminders\n- Post a teaser',
        recommendations: ['Invite speakers early', 'Send two reminders', 'Post a teaser'],
        proposedBriefData: null,
      }),
    );
    const view = await openBriefCreator();
    await say(view, 'Spring Webinar');
    await view.user.click(view.action('Generate recommendations'));
    const list = await within(view.log).findByRole('list', { name: 'Recommendations' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.firstChild?.textContent),
    ).toEqual(['Invite speakers early', 'Send two reminders', 'Post a teaser']);
    expect(api.state.calls[1]).toMatchObject({ generateRecommendations: true });
    // A turn without brief data leaves the brief as it was.
    expect(view.field('Campaign name')).toHaveValue('Spring Webinar');

    await view.user.click(within(list).getByRole('button', { name: 'Add to brief: Send two reminders' }));
    expect(within(view.preview).getByRole('textbox', { name: 'Recommendations, item 1' })).toHaveValue(
      'Send two reminders',
    );
    expect(within(list).getAllByText('In the brief')).toHaveLength(1);
    await view.user.click(within(view.log).getByRole('button', { name: 'Add all to brief' }));
    expect(
      within(view.preview)
        .getAllByRole('textbox', { name: /^Recommendations, item/ })
        .map((input) => (input as HTMLInputElement).value),
    ).toEqual(['Send two reminders', 'Invite speakers early', 'Post a teaser']);
    expect(within(view.log).queryByRole('button', { name: 'Add all to brief' })).toBeNull();
    await waitFor(() =>
      expect(api.state.saves.at(-1)?.briefData.recommendations).toEqual([
        'Send two reminders',
        'Invite speakers early',
        'Post a teaser',
      ]),
    );
    // The next turn sends them too.
    await say(view, 'Anything else?');
    expect(api.state.calls.at(-1)).toMatchObject({
      currentBriefData: { recommendations: ['Send two reminders', 'Invite speakers early', 'Post a teaser'] },
    });
  });

  it('Accept brief links to the finished brief, drops the session and starts a fresh chat', async () => {
    const done = brief({
      campaignName: 'Spring Webinar',
      campaignType: ['Webinar'],
      primaryObjective: 'Leads',
      targetAudience: 'CFOs',
      keyMessages: 'Faster closes',
      channels: ['LinkedIn'],
      activityKPIs: ['300 registrations'],
      businessKPIs: ['40 SQLs'],
    });
    api.reply(
      turn({ proposedBriefData: done, isAwaitingConfirmation: true }),
      turn({ response: 'Accepted.', proposedBriefData: done, finishedBriefId: FINISHED_ID }),
    );
    const view = await openBriefCreator();
    await say(view, 'That is all');
    api.state.sessions = [];
    api.state.finished = [finishedBrief({ data: done })];

    // Every required field is filled: the main action, and no question first.
    expect(view.action('Accept brief').className).toMatch(/_primary_/);
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
    expect(view.router.state.location.search).toBe('?session=new');

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
      if (kind === 'confirmation') {
        await view.user.click(await within(view.chat).findByRole('button', { name: 'Accept anyway' }));
      }
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
    const view = await openBriefCreator('/tools/brief-creator?tab=sessions&session=new');
    const card = await screen.findByRole('button', { name: /Resume Spring Webinar, session 3f2b8c1d/ });
    expect(card).toHaveTextContent('Mar 14, 2026');
    expect(card).toHaveTextContent('5 messages');
    await view.user.click(card);

    expect(screen.getByRole('tab', { name: 'Brief Creator' })).toHaveAttribute('aria-selected', 'true');
    // The URL names the session: a reload, a link or Back leads to it.
    expect(view.router.state.location.search).toBe(`?session=${SESSION_ID}`);
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
    const view = await openBriefCreator('/tools/brief-creator?tab=sessions&session=new');
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

describe('Brief creator: what a hands-on review asked for (issue 27)', () => {
  it('asks before accepting a brief with required fields empty, naming them; Keep editing sends nothing', async () => {
    api.reply(
      turn({ proposedBriefData: brief({ campaignName: 'Spring Webinar', campaignType: ['Webinar'] }) }),
    );
    const view = await openBriefCreator();
    await say(view, 'Spring Webinar');
    const accept = view.action('Accept brief');
    // Not the main action while the brief is incomplete.
    expect(accept.className).toMatch(/_secondary_/);

    await view.user.click(accept);
    const question = within(view.chat).getByRole('alertdialog');
    expect(question).toHaveTextContent(
      '6 required fields are empty: Primary objective, Target audience, Key messages, Channels, Activity KPIs, Business KPIs. Accept anyway?',
    );
    expect(within(question).getByRole('button', { name: 'Keep editing' })).toHaveFocus();
    await view.user.click(within(question).getByRole('button', { name: 'Keep editing' }));
    expect(within(view.chat).queryByRole('alertdialog')).toBeNull();
    expect(api.state.calls).toHaveLength(1);

    // Escape closes it too; Accept anyway accepts.
    await view.user.click(view.action('Accept brief'));
    await view.user.keyboard('{Escape}');
    expect(within(view.chat).queryByRole('alertdialog')).toBeNull();
    api.reply(turn({ response: 'Accepted.', finishedBriefId: FINISHED_ID }));
    await view.user.click(view.action('Accept brief'));
    await view.user.click(within(view.chat).getByRole('button', { name: 'Accept anyway' }));
    expect(await within(view.chat).findByRole('link', { name: 'View the finished brief' })).toBeVisible();
    expect(api.state.calls[1]).toMatchObject({ confirmJsonResponse: true, sessionId: SESSION_ID });
  });

  it('offers Retry on a failed answer: the stored message is answered again, not sent twice', async () => {
    api.reply(failedTurn(briefChatFailureTexts.chat));
    const view = await openBriefCreator();
    await say(view, 'Our webinar on ESG reporting');
    const failed = (await within(view.log).findByText(briefChatFailureTexts.chat)).closest('li')!;
    // The message stays on screen, once; the box is free for the next one.
    expect(within(view.log).getAllByText('Our webinar on ESG reporting')).toHaveLength(1);
    expect(view.input).toHaveValue('');

    api.reply(turn({ response: 'Thanks! What is the campaign called?' }));
    await view.user.click(within(failed).getByRole('button', { name: 'Retry' }));
    expect(await within(view.log).findByText('Thanks! What is the campaign called?')).toBeVisible();
    expect(within(view.log).queryByText(briefChatFailureTexts.chat)).toBeNull();
    expect(within(view.log).getAllByText('Our webinar on ESG reporting')).toHaveLength(1);
    expect(api.state.calls[1]).toMatchObject({ message: '', sessionId: SESSION_ID, retryLastMessage: true });
  });

  it('retries a failed action as that action, and only the last failure offers it', async () => {
    api.reply(turn(), failedTurn(briefChatFailureTexts.recommendations));
    const view = await openBriefCreator();
    await say(view, 'Spring Webinar');
    await view.user.click(view.action('Generate recommendations'));
    const failed = (await within(view.log).findByText(briefChatFailureTexts.recommendations)).closest('li')!;
    api.reply(turn({ response: '- One', recommendations: ['One'], proposedBriefData: null }));
    await view.user.click(within(failed).getByRole('button', { name: 'Retry' }));
    await within(view.log).findByRole('list', { name: 'Recommendations' });
    expect(api.state.calls[2]).toMatchObject({ generateRecommendations: true, retryLastMessage: false });
    expect(within(view.log).queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('opens the chat the URL names, with its brief, and says where an accepted one went', async () => {
    api.state.sessions = [
      session(SESSION_ID, [
        message('user', 'A webinar for CFOs', 1),
        message('system', JSON.stringify(brief({ campaignName: 'Spring Webinar' })), 2),
        message('assistant', assistant('What is the objective?'), 3),
      ]),
    ];
    const view = await openBriefCreator(`/tools/brief-creator?session=${SESSION_ID}`);
    expect(await within(view.log).findByText('What is the objective?')).toBeVisible();
    expect(view.field('Campaign name')).toHaveValue('Spring Webinar');
    expect(localStorage.getItem('gem:brief-creator:last-session')).toBe(SESSION_ID);

    // New chat is one click away, and Back comes back to the session.
    await view.user.click(within(view.chat).getByRole('button', { name: 'New chat' }));
    expect(view.router.state.location.search).toBe('?session=new');
    expect(within(view.log).queryByText('What is the objective?')).toBeNull();
    expect(view.field('Campaign name')).toHaveValue('');
    await view.router.navigate(-1);
    expect(await within(view.log).findByText('What is the objective?')).toBeVisible();

    const done = 'b1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5e';
    api.state.sessionDetails[done] = {
      ...session(done, [message('user', 'Old one', 1)]),
      finishedAt: '2026-03-14T10:30:00.000Z',
      finishedBriefId: FINISHED_ID,
      finishedBriefTitle: 'Autumn Report',
    };
    await view.router.navigate(`/tools/brief-creator?session=${done}`);
    const status = await within(view.chat).findByText(/its brief “Autumn Report” was accepted/);
    expect(status.closest('[role="status"]')).not.toBeNull();
    expect(within(view.chat).getByRole('link', { name: 'View the finished brief' })).toHaveAttribute(
      'href',
      `/tools/brief-creator/finished/${FINISHED_ID}`,
    );
    expect(within(view.log).queryByText('Old one')).toBeNull();
  });

  it('coming back without a session in the URL reopens the last open chat, else the newest', async () => {
    const older = '11111111-2222-4333-8444-555555555555';
    api.state.sessions = [
      session(SESSION_ID, [message('user', 'The newest chat', 1)], '2026-03-14T10:00:00.000Z'),
      session(older, [message('user', 'The one I had open', 1)], '2026-03-13T10:00:00.000Z'),
    ];
    localStorage.setItem('gem:brief-creator:last-session', older);
    const first = await openBriefCreator();
    expect(await within(first.log).findByText('The one I had open')).toBeVisible();
    expect(first.router.state.location.search).toBe(`?session=${older}`);
    first.unmount();

    // Gone (accepted in another tab, or someone else's): the newest open one.
    localStorage.setItem('gem:brief-creator:last-session', '99999999-2222-4333-8444-555555555555');
    const second = await openBriefCreator();
    expect(await within(second.log).findByText('The newest chat')).toBeVisible();
    expect(second.router.state.location.search).toBe(`?session=${SESSION_ID}`);
  });

  it('says so when the URL names a chat that is not there, and starts a new one there', async () => {
    const view = await openBriefCreator('/tools/brief-creator?session=99999999-2222-4333-8444-555555555555');
    const alert = await within(view.chat).findByRole('alert');
    expect(alert).toHaveTextContent('This chat could not be opened.');
    api.reply(turn({ response: 'Hello there.' }));
    await say(view, 'A new start');
    expect(api.state.calls[0]).toMatchObject({ sessionId: null });
    expect(view.router.state.location.search).toBe(`?session=${SESSION_ID}`);
  });

  it('saves a field typed by hand to the session after a pause, so a reload shows it', async () => {
    api.reply(turn({ proposedBriefData: brief({ campaignName: 'Spring Webinar' }) }));
    const view = await openBriefCreator();
    await say(view, 'Spring Webinar');
    expect(view.router.state.location.search).toBe(`?session=${SESSION_ID}`);
    await view.user.type(view.field('Budget'), '50 000 PLN');
    await waitFor(() =>
      expect(api.state.saves.at(-1)).toEqual({
        sessionId: SESSION_ID,
        briefData: brief({ campaignName: 'Spring Webinar', budget: '50 000 PLN' }),
      }),
    );
    // One save for the whole word, not one per keystroke.
    expect(api.state.saves.length).toBeLessThan(3);
  });

  it('searches Finished Briefs by name and filters them by campaign type, in the URL', async () => {
    api.state.finished = [
      finishedBrief({
        id: FINISHED_ID,
        data: brief({ campaignName: 'Łódź Webinar', campaignType: ['Webinar'] }),
      }),
      finishedBrief({
        id: 'b1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5e',
        data: brief({ campaignName: 'Spring Report', campaignType: ['Report', 'Email'] }),
      }),
    ];
    const view = renderRoute('/tools/brief-creator?tab=finished&session=new');
    await screen.findByRole('article', { name: 'Spring Report' });
    await view.user.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'lodz');
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Spring Report' })).toBeNull());
    expect(screen.getByRole('article', { name: 'Łódź Webinar' })).toBeVisible();
    expect(view.router.state.location.search).toContain('q=lodz');

    await view.user.clear(screen.getByRole('searchbox', { name: 'Search by name' }));
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Campaign type' }), 'Email');
    await waitFor(() =>
      expect(view.router.state.location.search).toBe('?tab=finished&session=new&type=Email'),
    );
    expect(await screen.findByRole('article', { name: 'Spring Report' })).toBeVisible();
    expect(screen.queryByRole('article', { name: 'Łódź Webinar' })).toBeNull();

    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Campaign type' }), 'Event');
    expect(await screen.findByText('No finished briefs match this search.')).toBeVisible();
    await view.user.click(screen.getByRole('button', { name: 'Clear the search' }));
    expect(await screen.findByRole('article', { name: 'Łódź Webinar' })).toBeVisible();
    expect(screen.getByRole('article', { name: 'Spring Report' })).toBeVisible();
  });

  it('deletes a finished brief with an Undo toast that brings it back', async () => {
    api.state.finished = [finishedBrief({ data: brief({ campaignName: 'Spring Webinar' }) })];
    const view = renderWithToasts('/tools/brief-creator?tab=finished&session=new');
    const card = await screen.findByRole('article', { name: 'Spring Webinar' });
    await view.user.click(within(card).getByRole('button', { name: 'Delete Spring Webinar' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Spring Webinar' })).toBeNull());
    expect(await screen.findByText('“Spring Webinar” was deleted.')).toBeVisible();
    expect(screen.getByText('No finished briefs found.')).toBeVisible();
    expect(api.state.deleted.map((b) => b.id)).toEqual([FINISHED_ID]);

    await view.user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('article', { name: 'Spring Webinar' })).toBeVisible();
    expect(await screen.findByText('“Spring Webinar” is back in Finished Briefs.')).toBeVisible();
    expect(api.state.deleted).toEqual([]);
  });

  it('puts a brief the server refused to delete back, and says why', async () => {
    api.state.finished = [finishedBrief({ data: brief({ campaignName: 'Spring Webinar' }) })];
    api.state.refuse = { status: 404, code: 'not_found', message: 'Brief not found.' };
    const view = renderWithToasts('/tools/brief-creator?tab=finished&session=new');
    const card = await screen.findByRole('article', { name: 'Spring Webinar' });
    await view.user.click(within(card).getByRole('button', { name: 'Delete Spring Webinar' }));
    expect(await screen.findByText('“Spring Webinar” could not be deleted. Brief not found.')).toBeVisible();
    expect(await screen.findByRole('article', { name: 'Spring Webinar' })).toBeVisible();
  });

  it("starts a new chat from a finished brief's data", async () => {
    const data = brief({ campaignName: 'Spring Webinar', channels: ['LinkedIn'] });
    api.state.finished = [finishedBrief({ data })];
    const started = '22222222-3333-4444-8555-666666666666';
    api.state.started = session(started, [message('system', JSON.stringify(data), 1)]);
    const view = await openBriefCreator('/tools/brief-creator?tab=finished&session=new');
    const card = await screen.findByRole('article', { name: 'Spring Webinar' });
    await view.user.click(
      within(card).getByRole('button', { name: 'Start from this brief: Spring Webinar' }),
    );

    await waitFor(() => expect(view.router.state.location.search).toBe(`?session=${started}`));
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'Brief Creator' })).toHaveAttribute('aria-selected', 'true'),
    );
    await waitFor(() => expect(view.field('Campaign name')).toHaveValue('Spring Webinar'));
    expect(within(view.preview).getByRole('textbox', { name: 'Channels, item 1' })).toHaveValue('LinkedIn');
    expect(within(view.chat).getByRole('status')).toHaveTextContent(
      'This chat starts from the finished brief “Spring Webinar”.',
    );
    api.reply(turn({ sessionId: started, response: 'What changes this time?' }));
    await say(view, 'Same again next year');
    expect(api.state.calls[0]).toMatchObject({ sessionId: started, currentBriefData: data });
  });

  it('deletes from the details page and goes back to the list, with Undo', async () => {
    api.state.finished = [finishedBrief({ data: brief({ campaignName: 'Spring Webinar' }) })];
    const view = renderWithToasts(`/tools/brief-creator/finished/${FINISHED_ID}`);
    await screen.findByRole('heading', { level: 1, name: 'Spring Webinar' });
    await view.user.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/tools/brief-creator'));
    expect(view.router.state.location.search).toContain('tab=finished');
    expect(await screen.findByText('“Spring Webinar” was deleted.')).toBeVisible();
    expect(await screen.findByText('No finished briefs found.')).toBeVisible();
  });
});
