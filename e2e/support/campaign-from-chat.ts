import type { ScriptedReply } from '@gem/test-servers/scripted-replies';
import type { Page } from 'playwright-core';
import { chat, chatTurn, openNewChat, say } from '../brief-creator-page';

/** A brief with every required field, accepted in the chat; its campaign made and opened. */
export async function campaignFromChat(
  page: Page,
  name: string,
  script: (...replies: ScriptedReply[]) => Promise<unknown>,
): Promise<string> {
  await openNewChat(page);
  await script(
    chatTurn('Everything is in the brief. Accept it when you are ready.', {
      campaignName: name,
      campaignType: ['Webinar'],
      primaryObjective: 'Win 40 qualified leads among CFOs.',
      targetAudience: 'CFOs of mid-sized companies in Poland.',
      keyMessages: 'Data makes decisions faster.',
      channels: ['LinkedIn', 'Newsletter'],
      activityKPIs: ['300 registrations'],
      businessKPIs: ['40 qualified leads'],
    }),
  );
  await say(page, `A webinar for CFOs called ${name}.`, 'Everything is in the brief.');
  await chat(page).getByRole('button', { name: 'Accept brief' }).click();
  const link = chat(page).getByRole('link', { name: 'View the finished brief' });
  await link.waitFor({ timeout: 15_000 });
  await link.click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await page.waitForURL((url) => /^\/campaigns\/[\da-f-]{36}$/.test(url.pathname), { timeout: 15_000 });
  await page.getByRole('heading', { level: 1, name }).waitFor();
  return new URL(page.url()).pathname;
}
