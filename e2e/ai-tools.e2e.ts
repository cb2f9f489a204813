import type { ScriptedReply } from '@gem/test-servers/scripted-replies';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { promptOf, useAiControl } from './support/ai-control';
import { pageProblems, screenshot, useBrowser, viewports } from './support/browser';
import { signInWithPopup } from './support/sign-in';

// The four AI writing tools (issue 4) in Chromium, against the OpenAI-compatible test server
// that global-setup starts and hands to GEM as its AI service.

const browser = useBrowser();

const { script, modelRequests } = useAiControl();

async function openTool(path: string, heading: string): Promise<Page> {
  const page = await browser.open('desktop');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: browser.baseURL() });
  await signInWithPopup(page);
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  return page;
}

const outputPanel = (page: Page) => page.getByRole('region', { name: 'Check the output' });
const outputBody = (page: Page) => outputPanel(page).locator('[data-output-status]');

async function waitForOutput(page: Page, status: 'succeeded' | 'failed' | 'cancelled' = 'succeeded') {
  await outputPanel(page).locator(`[data-output-status="${status}"]`).waitFor({ timeout: 10_000 });
}

async function clipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

/** The same page at desktop and phone width, with the output on screen. */
async function screenshots(page: Page, name: string) {
  // From the top, or the sticky header lands mid-page in a full-page shot.
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(viewports.mobile);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-mobile`);
  await page.setViewportSize(viewports.desktop);
}

async function copyAndRead(page: Page, scope: Locator): Promise<string> {
  await scope.getByRole('button', { name: 'Copy to clipboard' }).click();
  await scope.getByRole('button', { name: 'Copied!' }).waitFor();
  return clipboard(page);
}

describe('AI writing tools', () => {
  it('article: generates formatted output, copies it raw, clears fields, restores from history', async () => {
    const page = await openTool('/tools/article', 'Article');
    const content = page.getByLabel('Paste the base content');
    const task = page.getByLabel('Describe the task for GEM');
    const generate = page.getByRole('button', { name: 'Generate', exact: true });
    await content.fill('Raport: polskie firmy inwestują w analitykę danych.');
    expect(await generate.isDisabled()).toBe(true); // the task is still empty
    await task.fill('News o analityce danych na stronę, z wynikami raportu.');

    const article =
      '**Dane przyspieszają decyzje**\n\n- Raport w godzinę\n- Mniej pracy ręcznej\n\nZacznij od jednego procesu.';
    await script({ kind: 'text', text: article });
    await generate.click();
    await waitForOutput(page);

    // Rendered as formatted text, not as raw markdown.
    const body = outputBody(page);
    await body.locator('strong', { hasText: 'Dane przyspieszają decyzje' }).waitFor();
    expect(await body.locator('li').allInnerTexts()).toEqual(['Raport w godzinę', 'Mniej pracy ręcznej']);
    expect(await body.innerText()).not.toContain('**');
    // The prompt is built on the server from the fields, in Polish.
    const [request] = await modelRequests();
    expect(promptOf(request!)).toContain('News o analityce danych na stronę, z wynikami raportu.');
    expect(promptOf(request!)).toMatch(/znaków|polsku/i);

    expect(await copyAndRead(page, outputPanel(page))).toBe(article);
    await screenshots(page, 'ai-article');

    await page.getByRole('button', { name: 'Clear fields' }).click();
    expect(await content.inputValue()).toBe('');
    expect(await task.inputValue()).toBe('');
    expect(await generate.isDisabled()).toBe(true);

    // A fresh visit starts empty; the recent output brings back its inputs and output.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Article' }).waitFor();
    const recent = page.getByRole('region', { name: 'Your recent outputs' });
    await recent.getByRole('button', { name: /News o analityce danych na stronę/ }).click();
    await waitForOutput(page);
    expect(await content.inputValue()).toBe('Raport: polskie firmy inwestują w analitykę danych.');
    expect(await task.inputValue()).toBe('News o analityce danych na stronę, z wynikami raportu.');
    await body.locator('strong', { hasText: 'Dane przyspieszają decyzje' }).waitFor();
    expect(await page.getByRole('link', { name: 'Return to menu' }).getAttribute('href')).toBe('/tools');
    expect(await modelRequests()).toHaveLength(1);
    expect(pageProblems(page)).toEqual([]);
  });

  it('shows the text while the model is still writing, and Stop ends the model call', async () => {
    const page = await openTool('/tools/article', 'Article');
    await page.getByLabel('Paste the base content').fill('Treść bazowa do artykułu.');
    await page.getByLabel('Describe the task for GEM').fill('Napisz artykuł.');
    // Three words, then the model holds the stream open without finishing it.
    await script({
      kind: 'stall',
      text: 'Pierwsze trzy słowa, a reszta nigdy nie przychodzi.',
      afterTokens: 3,
    });
    await page.getByRole('button', { name: 'Generate', exact: true }).click();

    const streaming = outputPanel(page).locator('[data-output-status="streaming"]');
    await streaming.getByText('Pierwsze trzy słowa,').waitFor({ timeout: 5_000 });
    expect(await outputPanel(page).getByText('Writing…').isVisible()).toBe(true);
    const [held] = await modelRequests();
    expect(held).toMatchObject({ finished: false, closedByClient: false });

    await outputPanel(page).getByRole('button', { name: 'Stop' }).click();
    await waitForOutput(page, 'cancelled');
    expect(await outputBody(page).innerText()).toContain('Pierwsze trzy słowa,');
    await expect.poll(async () => (await modelRequests())[0]?.closedByClient, { timeout: 5_000 }).toBe(true);
    expect(pageProblems(page)).toEqual([]);
  });

  it('paid ads: shows the analysis and the ad copy; copy takes the ad copy only', async () => {
    const page = await openTool('/tools/paid-ads', 'Paid ads');
    await page.getByLabel('Paste the base content').fill('Raport o cyfryzacji średnich firm w Polsce.');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await waitForOutput(page);

    const panel = outputPanel(page);
    await panel.getByRole('heading', { name: 'Analysis' }).waitFor();
    await panel.getByRole('heading', { name: 'Ad copy' }).waitFor();
    expect(await panel.locator('li').count()).toBeGreaterThan(1);
    const copied = await copyAndRead(page, panel);
    expect(copied).toMatch(/^📊 Decyzje oparte na danych/);
    expect(copied).not.toContain('Analiza');
    await screenshots(page, 'ai-paid-ads');

    await page.getByRole('button', { name: 'Clear fields' }).click();
    expect(await page.getByLabel('Paste the base content').inputValue()).toBe('');
    expect(pageProblems(page)).toEqual([]);
  });

  it('paid ads: a messy real-model answer is split into a clean analysis and one ad copy', async () => {
    // As Llama 3 and GPT-4o answer: a preamble, numbered headings with emoji and a parenthetical,
    // three labelled variants, a note on the length and an offer of help.
    const firstCopy =
      '📊 Raportowanie ESG bez nerwów? Zobacz, jak średnie firmy skracają raport o połowę. 👉 Zapisz się na webinar!';
    await script({
      kind: 'text',
      text: [
        'Oto propozycja reklamy na LinkedIn:',
        '',
        '### 1. 🔍 Analiza',
        '',
        '- **Grupa docelowa:** dyrektorzy finansowi.',
        '- **Wezwanie do działania:** webinar.',
        '',
        '### 2. Tekst reklamy (LinkedIn, 356 znaków)',
        '',
        `**Wariant 1:** ${firstCopy}`,
        '',
        '**Wariant 2:** Raport ESG w połowę czasu? Sprawdź, jak to robią najlepsi.',
        '',
        '**Wariant 3:** Mniej Excela, więcej decyzji.',
        '',
        '---',
        '',
        '*Długość: 312 znaków*',
        '',
        'Daj znać, jeśli chcesz wersję bardziej formalną!',
      ].join('\n'),
    });
    const page = await openTool('/tools/paid-ads', 'Paid ads');
    await page.getByLabel('Paste the base content').fill('Raport o raportowaniu ESG w średnich firmach.');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await waitForOutput(page);

    const panel = outputPanel(page);
    const analysis = panel.getByRole('region', { name: 'Analysis' });
    const adCopy = panel.getByRole('region', { name: 'Ad copy' });
    expect(await analysis.locator('li').allInnerTexts()).toEqual([
      'Grupa docelowa: dyrektorzy finansowi.',
      'Wezwanie do działania: webinar.',
    ]);
    expect((await adCopy.locator('p').allInnerTexts()).join('\n')).toBe(firstCopy);
    await panel
      .getByRole('note')
      .filter({ hasText: 'The AI wrote 3 variants of the ad copy; the first is shown.' })
      .waitFor();
    expect(await panel.innerText()).not.toMatch(/Oto propozycja|Długość|Daj znać|Wariant/);
    expect(await copyAndRead(page, panel)).toBe(firstCopy);
    await panel.getByText(/^\d+ \/ 600 characters$/).waitFor();
    await screenshots(page, 'ai-paid-ads-messy-answer');
    expect(pageProblems(page)).toEqual([]);
  });

  it('social post: Summarize, then description, format and persona, then Generate', async () => {
    const page = await openTool('/tools/social-media-post', 'Social media post');
    const generate = page.getByRole('button', { name: 'Generate', exact: true });
    await page
      .getByLabel('Paste the base content')
      .fill('Dokument o cyfryzacji polskich firm średniej wielkości.');
    await page.getByRole('button', { name: 'Summarize', exact: true }).click();
    const summary = page.getByLabel('Summary', { exact: true });
    await expect.poll(() => summary.inputValue(), { timeout: 10_000 }).toMatch(/^Dokument omawia/);
    expect(await generate.isDisabled()).toBe(true); // the description is still empty

    await page.getByLabel('Describe the post').fill('Zaproszenie klientów na webinar o danych.');
    await page.getByLabel('Format').selectOption({ label: 'Long: up to 300 words' });
    await page.getByLabel('Persona').selectOption('CEO');
    await generate.click();
    await waitForOutput(page);
    await outputBody(page).getByText('Dane zmieniają sposób').waitFor();

    const [summarize, post] = await modelRequests();
    expect(promptOf(summarize!)).toContain('Dokument o cyfryzacji polskich firm');
    const postPrompt = promptOf(post!);
    expect(postPrompt).toContain('Zaproszenie klientów na webinar o danych.');
    expect(postPrompt).toContain('Dokument omawia');
    expect(postPrompt).toContain('300');
    expect(postPrompt).toContain('CEO');

    expect(await copyAndRead(page, outputPanel(page))).toMatch(/^Dane zmieniają sposób/);
    await screenshots(page, 'ai-social-media-post');
    expect(pageProblems(page)).toEqual([]);
  });

  it('teaser: generates, copies, and Send via email carries the teaser as the mail body', async () => {
    const page = await openTool('/tools/teaser-generator', 'Teaser generator');
    await page.getByLabel('Paste the base content').fill('Raport o tempie decyzji w firmach.');
    const teaser = 'Czy Twoja firma decyduje szybciej? Sprawdź & przeczytaj #raport.\nDrugi wiersz.';
    await script({ kind: 'text', text: teaser });
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await waitForOutput(page);

    expect(await copyAndRead(page, outputPanel(page))).toBe(teaser);
    const href = await outputPanel(page).getByRole('link', { name: 'Send via email' }).getAttribute('href');
    expect(href).toMatch(/^mailto:\?body=/);
    expect(new URL(href!).searchParams.get('body')).toBe(teaser);
    await screenshots(page, 'ai-teaser-generator');
    expect(pageProblems(page)).toEqual([]);
  });

  it("shows the spec's error texts when the model fails or answers nothing", async () => {
    const page = await openTool('/tools/article', 'Article');
    await page.getByLabel('Paste the base content').fill('Treść.');
    await page.getByLabel('Describe the task for GEM').fill('Zadanie.');
    // A 500, retried twice by GEM (quickly, as Retry-After asks), still a 500.
    const failure: ScriptedReply = { kind: 'status', status: 500, retryAfterMs: 10 };
    await script(failure, failure, failure);
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await waitForOutput(page, 'failed');
    await outputPanel(page).getByRole('alert').getByText('Error generating article').waitFor();
    expect(await modelRequests()).toHaveLength(3);

    await page.goto('/tools/teaser-generator');
    await page.getByLabel('Paste the base content').fill('Treść.');
    await script({ kind: 'text', text: '' });
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await waitForOutput(page, 'failed');
    // Spelled so in spec §8.
    await outputPanel(page).getByRole('alert').getByText('Error occured, please try again').waitFor();
    expect(pageProblems(page).filter((p) => !/status of 50\d/.test(p))).toEqual([]);
  });
});
