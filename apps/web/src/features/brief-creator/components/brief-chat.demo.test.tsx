import { DEMO_ANSWER_TEXT } from '@gem/contracts/ai-status';
import { render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';

import { serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

import { entriesOfMessages } from '../chat-entries';
import {
  assistant,
  brief,
  fakeBriefApi,
  FINISHED_ID,
  finishedBrief,
  message,
  session,
  SESSION_ID,
  turn,
} from '../testing/fake-brief-api';
import { ChatBubble } from './chat-bubble';

// Issue 27, item 13: an answer of the built-in stand-in (no AI service configured) is marked
// 'Demo answer: no AI service is configured' in its bubble, as the writing tools mark theirs,
// when it arrives and whenever the chat is shown again.

const server = serveApi();
const api = fakeBriefApi(server);

beforeEach(() => localStorage.clear());

async function openChat(path = '/tools/brief-creator?session=new') {
  const view = renderRoute(path);
  await screen.findByRole('heading', { level: 1, name: 'Brief creator' });
  const chat = () => screen.getByRole('region', { name: 'Chat with the assistant' });
  return {
    ...view,
    chat,
    log: () => within(chat()).getByRole('log', { name: 'Conversation' }),
    input: () => within(chat()).getByLabelText('Your message'),
  };
}

/** The bubble (list item) that holds `text`. */
const bubbleOf = (log: HTMLElement, text: string) => within(log).getByText(text).closest('li')!;

describe('Brief creator: answers of the built-in stand-in (issue 27)', () => {
  it('marks a demo answer as it arrives, and only that one', async () => {
    api.reply(
      turn({ response: 'Dziękuję! Jak nazywa się kampania?', demo: true }),
      turn({ response: 'Noted, thank you.' }),
    );
    const view = await openChat();
    await view.user.type(view.input(), 'Webinar{Enter}');
    const demo = await within(view.log()).findByText('Dziękuję! Jak nazywa się kampania?');
    const mark = await within(demo.closest('li')!).findByText(DEMO_ANSWER_TEXT);
    expect(mark).toBeVisible();

    await waitFor(() => expect(view.input()).toBeEnabled());
    await view.user.type(view.input(), 'Spring{Enter}');
    await within(view.log()).findByText('Noted, thank you.');
    expect(within(bubbleOf(view.log(), 'Noted, thank you.')).queryByText(DEMO_ANSWER_TEXT)).toBeNull();
    expect(within(view.log()).getAllByText(DEMO_ANSWER_TEXT)).toHaveLength(1);
  });

  it('marks the demo answers of a resumed chat, as the session stored them', async () => {
    api.state.sessions = [
      session(SESSION_ID, [
        message('user', 'A webinar for CFOs', 1),
        message('assistant', assistant('Jak nazywa się kampania?', { demo: true }), 2),
        message('user', 'Recommend something', 3),
        message(
          'assistant',
          assistant('- A\n- B', { recommendations: ['Invite early', 'Remind twice'], demo: true }),
          4,
        ),
        message('assistant', assistant('An answer of a real service.'), 5),
      ]),
    ];
    const view = await openChat(`/tools/brief-creator?session=${SESSION_ID}`);
    await within(view.log()).findByText('Jak nazywa się kampania?');
    expect(
      within(bubbleOf(view.log(), 'Jak nazywa się kampania?')).getByText(DEMO_ANSWER_TEXT),
    ).toBeVisible();
    const recommendations = within(view.log()).getByRole('list', { name: 'Recommendations' }).closest('li')!;
    expect(within(recommendations).getByText(DEMO_ANSWER_TEXT)).toBeVisible();
    expect(
      within(bubbleOf(view.log(), 'An answer of a real service.')).queryByText(DEMO_ANSWER_TEXT),
    ).toBeNull();
  });

  it("marks them on a finished brief's page too", async () => {
    api.state.finished = [
      finishedBrief({
        data: brief({ campaignName: 'Spring Webinar' }),
        messages: [
          message('user', 'A webinar', 1),
          message('assistant', assistant('Świetnie, zapisane.', { demo: true }), 2),
        ],
      }),
    ];
    renderRoute(`/tools/brief-creator/finished/${FINISHED_ID}`);
    const conversation = await screen.findByRole('region', { name: 'Conversation' });
    const answer = await within(conversation).findByText('Świetnie, zapisane.');
    expect(within(answer.closest('li')!).getByText(DEMO_ANSWER_TEXT)).toBeVisible();
  });
});

describe('ChatBubble', () => {
  it('shows the demo mark above a demo answer, and none on the user’s message or a failed turn', () => {
    const entries = entriesOfMessages([
      message('user', 'Hello', 1),
      message('assistant', assistant('Cześć!', { demo: true }), 2),
      message(
        'assistant',
        assistant('Przepraszamy…', { error: { code: 'ai_unavailable', message: 'Failed.' }, demo: true }),
        3,
      ),
    ]);
    expect(entries.map((entry) => entry.role === 'assistant' && entry.demo)).toEqual([
      false,
      true,
      undefined,
    ]);
    render(
      <ol>
        {entries.map((entry) => (
          <ChatBubble key={entry.id} entry={entry} />
        ))}
      </ol>,
    );
    const [user, answer, failed] = screen.getAllByRole('listitem');
    expect(within(answer!).getByText(DEMO_ANSWER_TEXT)).toBeVisible();
    // Above the answer: the first thing read after 'Assistant:'.
    expect(answer!.textContent).toMatch(new RegExp(`^Assistant: ${DEMO_ANSWER_TEXT}Cześć!`));
    expect(within(user!).queryByText(DEMO_ANSWER_TEXT)).toBeNull();
    expect(within(failed!).queryByText(DEMO_ANSWER_TEXT)).toBeNull();
  });
});
