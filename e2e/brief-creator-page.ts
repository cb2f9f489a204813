import { briefChatTurn } from '@gem/test-servers/brief-replies';
import type { Page } from 'playwright-core';
import type { viewports } from './support/browser';

// The brief creator's page as its browser tests read it: its regions, a chat turn, and how much
// of the conversation is on screen.

/** A test that walks a whole path through the page (a shared machine can take a while). */
export const LONG_TEST_MS = 60_000;

export function chatTurn(
  standardAnswer: string,
  updates: Record<string, unknown>,
  isAwaitingConfirmation = false,
) {
  return { kind: 'object', value: briefChatTurn(standardAnswer, updates, isAwaitingConfirmation) } as const;
}

/** Two answers that are not JSON: the turn fails after one repair, as a broken model's would. */
export const brokenAnswers = [
  { kind: 'raw-json', text: '{"standardAnswer": "cut' },
  { kind: 'raw-json', text: '[1, 2' },
] as const;

export const chat = (page: Page) => page.getByRole('region', { name: 'Chat with the assistant' });
export const preview = (page: Page) => page.getByRole('region', { name: 'Brief preview' });
export const log = (page: Page) => chat(page).getByRole('log', { name: 'Conversation' });

/** Sends a message with Enter and waits until the answer is in. */
export async function say(page: Page, text: string, answer: string) {
  const input = chat(page).getByLabel('Your message');
  await input.fill(text);
  await input.press('Enter');
  await log(page).getByText(answer).waitFor({ timeout: 10_000 });
  await chat(page).getByText('Enter sends, Shift+Enter adds a line.').waitFor();
}

/** A new, empty chat (whatever this user left open in other tests). */
export async function openNewChat(page: Page) {
  await page.goto('/tools/brief-creator?session=new');
  await page.getByRole('heading', { level: 1, name: 'Brief creator' }).waitFor();
  await log(page).getByText("I'm your brief assistant", { exact: false }).waitFor();
}

/** On a phone the brief's fields fold away: open them to read or type in one. */
export async function showFields(page: Page, width: keyof typeof viewports) {
  if (width !== 'mobile') return;
  const toggle = preview(page).getByRole('button', { name: 'Show fields' });
  if (await toggle.isVisible()) await toggle.click();
}

/**
 * How much of the conversation is on screen (below the header bar, above the window's bottom),
 * and whether its newest message is in view, inside the conversation and inside the window.
 */
export async function conversationView(page: Page) {
  return log(page).evaluate((element) => {
    const box = element.getBoundingClientRect();
    const bar = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    const visible = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, bar);
    const newest = element.querySelector(':scope > ol > li:last-child')?.getBoundingClientRect();
    const newestInView =
      newest !== undefined &&
      newest.bottom <= box.bottom + 1 &&
      newest.bottom > box.top + 1 &&
      newest.bottom <= window.innerHeight + 1 &&
      newest.bottom > bar;
    return { visible: Math.round(visible), newestInView };
  });
}

/** Waits until the toast that says `text` has finished coming in (for a screenshot of it). */
export async function toastShown(page: Page, text: string) {
  await page.getByText(text).waitFor();
  await page.waitForFunction((words) => {
    const toast = [...document.querySelectorAll('.Toastify__toast')].find((el) =>
      el.textContent?.includes(words),
    );
    return toast !== undefined && toast.getAnimations().every((a) => a.playState !== 'running');
  }, text);
}
