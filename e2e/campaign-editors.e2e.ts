import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LONG_TEST_MS } from './brief-creator-page';
import { useAiControl } from './support/ai-control';
import { pageProblems, screenshot, useBrowser } from './support/browser';
import { audit } from './support/axe';
import { campaignFromChat } from './support/campaign-from-chat';
import { colleague, signInWithPopup } from './support/sign-in';

// Two editors saving the same asset (issue 29) in Chromium at 1440 × 900 and 390 × 844: the
// marketer makes a campaign from a brief and generates its LinkedIn post, then adds the demo
// colleague, signed in in a browser of their own (a context with its own cookies and storage),
// as the campaign's editor. Both edit the post; the colleague saves first, so the marketer's save
// is refused and shows both texts. The marketer keeps theirs at one width and mine at the other,
// and the post's versions name who made each. The conflict is checked with axe.

const browser = useBrowser();
const { script } = useAiControl();

const widths = ['desktop', 'mobile'] as const;
type Width = (typeof widths)[number];

const generatedPost =
  'Dyrektorzy finansowi, dołączcie do naszego webinaru o płynności finansowej. Pokażemy, jak dane przyspieszają decyzje.';
const marketerText = 'Wersja marketera: webinar o płynności finansowej dla dyrektorów finansowych.';
const colleagueText = 'Wersja koleżanki: zapraszamy dyrektorów finansowych na webinar o płynności.';

const assetCard = (page: Page, name: string): Locator =>
  page.getByRole('region', { name: 'Assets', exact: true }).getByRole('article', { name });

const versionShown = (card: Locator, version: number) =>
  card.getByText(`Version ${version}`, { exact: true }).first().waitFor();

/** The LinkedIn post generated from the brief as it stands, saved as version 1. */
async function generateLinkedInPost(page: Page): Promise<Locator> {
  const post = assetCard(page, 'LinkedIn post');
  await post.getByText('Not written yet').waitFor();
  await post.getByRole('button', { name: 'Generate from brief' }).click();
  const form = post.getByRole('form', { name: 'Generate the LinkedIn post from the brief' });
  await form.getByLabel('Describe the post').waitFor();
  await script({ kind: 'text', text: generatedPost, tokenDelayMs: 5 });
  await form.getByRole('button', { name: 'Generate' }).click();
  await versionShown(post, 1);
  await post.getByText(generatedPost).waitFor();
  return post;
}

/** Each version of the post as its list shows it: number, how it was made, by whom. */
async function versionsOf(post: Locator): Promise<Locator> {
  await post.getByRole('button', { name: 'Versions' }).click();
  const versions = post.getByRole('list', { name: 'Versions of the LinkedIn post' });
  await versions.getByRole('listitem').first().waitFor();
  return versions;
}

describe.each(widths)(
  'Two editors of a campaign at %s width (issue 29)',
  { timeout: LONG_TEST_MS },
  (width: Width) => {
    it('the colleague saves the post first; the marketer sees both texts and keeps one; the versions name both', async () => {
      // The colleague signs in once, in a browser of their own: only then can they be added.
      const theirPage = await browser.open(width);
      await signInWithPopup(theirPage, colleague);

      const page = await browser.open(width);
      expect(page.context()).not.toBe(theirPage.context());
      await signInWithPopup(page);
      const name = `Two editors ${width}`;
      const path = await campaignFromChat(page, name, script);
      const post = await generateLinkedInPost(page);

      // The marketer, who owns the campaign, adds the colleague as its editor.
      const settings = page.getByRole('region', { name: 'Settings', exact: true });
      await settings.getByLabel('Add an editor by the e-mail they sign in to GEM with').fill(colleague.email);
      await settings.getByRole('button', { name: 'Add editor' }).click();
      const editors = settings.getByRole('list', { name: 'Editors' });
      await editors.getByText('Demo Colleague').waitFor();
      await editors.scrollIntoViewIfNeeded();
      await screenshot(page, `campaign-editors-added-${width}`, { fullPage: false });

      // Both open the post's editor on version 1 and type texts of their own.
      await post.getByRole('button', { name: 'Edit', exact: true }).click();
      await post.getByLabel('Text of the LinkedIn post').fill(marketerText);
      await theirPage.goto(path);
      await theirPage.getByRole('heading', { level: 1, name }).waitFor();
      // An editor, not the owner: the editors are listed, but only the owner adds or removes them.
      const theirSettings = theirPage.getByRole('region', { name: 'Settings', exact: true });
      await theirSettings.getByRole('list', { name: 'Editors' }).getByText('Demo Colleague').waitFor();
      expect(await theirSettings.getByRole('button', { name: 'Add editor' }).count()).toBe(0);
      const theirPost = assetCard(theirPage, 'LinkedIn post');
      await theirPost.getByText(generatedPost).waitFor();
      await theirPost.getByRole('button', { name: 'Edit', exact: true }).click();
      await theirPost.getByLabel('Text of the LinkedIn post').fill(colleagueText);

      // The colleague saves first: version 2.
      await theirPost.getByRole('button', { name: 'Save', exact: true }).click();
      await versionShown(theirPost, 2);
      await theirPost.getByText(colleagueText).waitFor();

      // The marketer saves second, on version 1: refused, their text kept as version 3, both shown.
      await post.getByRole('button', { name: 'Save', exact: true }).click();
      const conflict = post.getByRole('alert').filter({ hasText: 'Someone changed the LinkedIn post' });
      await conflict.getByRole('group', { name: 'Yours, kept as version 3' }).waitFor();
      expect(await conflict.innerText()).toContain('while you were editing version 1: it is now version 2.');
      expect(await conflict.getByRole('group', { name: 'Version 2, the current one' }).innerText()).toContain(
        colleagueText,
      );
      expect(await conflict.getByRole('group', { name: 'Yours, kept as version 3' }).innerText()).toContain(
        marketerText,
      );
      expect(await post.getByLabel('Text of the LinkedIn post').inputValue()).toBe(marketerText);
      await conflict.scrollIntoViewIfNeeded();
      await screenshot(page, `campaign-editors-conflict-${width}`, { fullPage: false });
      const found = await audit(page, `campaign editors, conflict (${width})`);

      // Mine at the wide width (restored as version 4), theirs at the narrow one (version 2 stays).
      const current = width === 'desktop' ? marketerText : colleagueText;
      if (width === 'desktop') {
        await conflict.getByRole('button', { name: 'Keep mine' }).click();
        await versionShown(post, 4);
      } else {
        await conflict.getByRole('button', { name: 'Keep theirs' }).click();
        await conflict.waitFor({ state: 'detached' });
        await versionShown(post, 2);
      }
      await post.getByText(current).first().waitFor();

      // Every save is in the versions, with its author's name: the colleague's and the marketer's.
      const versions = await versionsOf(post);
      const expected = [
        ...(width === 'desktop' ? [['Version 4', 'Restored', 'Demo Marketer']] : []),
        ['Version 3', 'Kept from a conflicting save', 'Demo Marketer'],
        ['Version 2', 'Edited by hand', 'Demo Colleague'],
        ['Version 1', 'Generated', 'Demo Marketer'],
      ];
      await versions.getByRole('listitem', { name: expected[0]![0] }).waitFor();
      expect(await versions.getByRole('listitem').count()).toBe(expected.length);
      for (const [version, kind, author] of expected) {
        const item = await versions.getByRole('listitem', { name: version }).innerText();
        expect(item).toContain(kind);
        expect(item).toContain(author);
      }
      const kept = width === 'desktop' ? 'Version 4' : 'Version 2';
      expect(await versions.getByRole('listitem', { name: kept }).innerText()).toContain('Current');
      await versions.scrollIntoViewIfNeeded();
      await screenshot(page, `campaign-editors-versions-${width}`, { fullPage: false });

      // The colleague, reloading, reads what the marketer kept, and the same versions.
      await theirPage.reload();
      await theirPost.getByText(current).first().waitFor();
      const theirVersions = await versionsOf(theirPost);
      await theirVersions.getByRole('listitem', { name: expected[0]![0] }).waitFor();
      expect(await theirVersions.getByRole('listitem').count()).toBe(expected.length);
      expect(await theirVersions.getByRole('listitem', { name: 'Version 2' }).innerText()).toContain(
        'Demo Colleague',
      );

      if (found.length > 0) console.error(`axe found:\n${found.join('\n')}`);
      expect(found).toEqual([]);
      // The refused save is the one error the marketer's browser logs; the colleague's logs none.
      expect(pageProblems(page).filter((p) => !p.includes('409 (Conflict)'))).toEqual([]);
      expect(pageProblems(theirPage)).toEqual([]);
    });
  },
);
