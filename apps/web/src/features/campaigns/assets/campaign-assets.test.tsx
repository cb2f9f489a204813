import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { campaign, campaignBrief, fakeCampaignsApi } from '@/features/campaigns/testing/fake-campaigns-api';
import { deltas, final, gate, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

import { fakeAssetsApi } from './testing/fake-assets-api';

const server = serveApi();
const campaigns = fakeCampaignsApi(server);
const api = fakeAssetsApi(server);

/** The campaign's page, once its assets are listed; `card` is one channel's asset. */
async function openAssets() {
  const view = renderRoute(`/campaigns/${campaign().id}`);
  const section = await screen.findByRole('region', { name: 'Assets' });
  await within(section).findByRole('list', { name: 'Assets by channel' });
  const card = (name: string) => within(section).getByRole('article', { name });
  return { ...view, section, card };
}

describe('Campaign assets: made from the brief', () => {
  it('shows a card per channel the brief calls for, and adds one for another channel', async () => {
    campaigns.state.campaigns = [campaign()];
    const { section, card, user } = await openAssets();
    const cards = within(within(section).getByRole('list', { name: 'Assets by channel' })).getAllByRole(
      'article',
    );
    // 'LinkedIn' and 'Newsletter' in the brief.
    expect(cards.map((c) => c.querySelector('h3')?.textContent)).toEqual(['LinkedIn post', 'E-mail teaser']);
    expect(within(card('LinkedIn post')).getByText('Not written yet')).toBeVisible();
    expect(within(card('LinkedIn post')).getByText(/No LinkedIn post yet/)).toBeVisible();

    await user.selectOptions(within(section).getByLabelText('Add an asset for another channel'), 'X post');
    await user.click(within(section).getByRole('button', { name: 'Add asset' }));
    expect(card('X post')).toBeVisible();
    expect(
      within(within(section).getByLabelText('Add an asset for another channel')).queryByRole('option', {
        name: 'X post',
      }),
    ).toBeNull();
  });

  it('generates from the brief with the inputs as changed, streams the text, then shows the saved asset', async () => {
    campaigns.state.campaigns = [campaign()];
    const held = gate();
    const rest = gate();
    api.reply({
      kind: 'stream',
      events: [
        ...deltas('Pierwsza, za długa wersja '),
        { until: held.until },
        { type: 'restart' },
        ...deltas('Webinar dla CFO: '),
        { until: rest.until },
        ...deltas('zapisz się już dziś.'),
        final('Webinar dla CFO: **zapisz się** już dziś.'),
      ],
    });
    const { card, user } = await openAssets();
    const linkedin = card('LinkedIn post');
    await user.click(within(linkedin).getByRole('button', { name: 'Generate from brief' }));

    // What will be sent, from the brief, in the social post tool's own fields.
    const form = await within(linkedin).findByRole('form', {
      name: 'Generate the LinkedIn post from the brief',
    });
    const description = within(form).getByLabelText('Describe the post');
    expect(description).toHaveValue('LinkedIn post kampanii „Spring Webinar”.');
    expect(within(form).getByLabelText('Summary')).toHaveValue(
      'Kampania: Spring Webinar\nCel główny: Leads from CFOs',
    );
    expect(within(form).getByLabelText('Format')).toHaveValue('300');
    await user.clear(description);
    await user.type(description, 'Zaproszenie dla dyrektorów finansowych.');
    await user.selectOptions(within(form).getByLabelText('Format'), 'Short: up to 200 words');
    await user.click(within(form).getByRole('button', { name: 'Generate' }));

    // The text as it is written; a restart clears it.
    expect(await within(linkedin).findByText('Pierwsza, za długa wersja')).toBeVisible();
    expect(within(linkedin).getByText('Writing…')).toBeVisible();
    expect(within(linkedin).getByRole('button', { name: 'Stop' })).toBeVisible();
    held.open();
    expect(await within(linkedin).findByText('Webinar dla CFO:')).toBeVisible();
    expect(within(linkedin).queryByText(/Pierwsza/)).toBeNull();
    rest.open();

    // Saved by the server before its final event, then asked for again: its version and provenance.
    expect(await within(linkedin).findByText('Version 1')).toBeVisible();
    expect(within(linkedin).getByText('zapisz się').tagName).toBe('STRONG');
    expect(within(linkedin).getByText('Draft', { selector: 'span' })).toBeVisible();
    expect(within(linkedin).queryByText('Writing…')).toBeNull();
    expect(within(linkedin).queryByRole('form')).toBeNull();
    const made = within(linkedin).getByText('Generated with').parentElement!;
    expect(made).toHaveTextContent('Brief:version 1');
    expect(made).toHaveTextContent('Tool:Social media post');
    expect(made).toHaveTextContent('Prompt:social-media-post@1a2b3c4d');
    expect(made).toHaveTextContent('Model:gem-test-model');
    expect(await within(made).findByText('Mar 14, 2026', { exact: false })).toBeVisible();
    expect(
      within(linkedin).getByRole('list', { name: "Length against the LinkedIn post's limits" }),
    ).toHaveTextContent('LinkedIn post:41 / 3,000 characters');

    expect(api.state.generated).toEqual([
      {
        channel: 'linkedin-post',
        body: {
          input: {
            summary: 'Kampania: Spring Webinar\nCel główny: Leads from CFOs',
            content: 'Kampania: Spring Webinar',
            description: 'Zaproszenie dla dyrektorów finansowych.',
            format: 200,
            persona: 'CEO',
          },
        },
      },
    ]);

    await user.click(within(linkedin).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe('Webinar dla CFO: **zapisz się** już dziś.');
  });

  it('says when the text is the built-in example of the demo stand-in', async () => {
    campaigns.state.campaigns = [campaign()];
    api.reply({ kind: 'stream', events: [final('Przykładowy teaser.', { demo: true })] });
    const { card, user } = await openAssets();
    const teaser = card('E-mail teaser');
    await user.click(within(teaser).getByRole('button', { name: 'Generate from brief' }));
    await user.click(await within(teaser).findByRole('button', { name: 'Generate' }));
    expect(await within(teaser).findByText('Version 1')).toBeVisible();
    expect(within(teaser).getByText('Demo answer: no AI service is configured')).toBeVisible();
    expect(within(teaser).getByText('Generated with').parentElement).toHaveTextContent(
      "Model:GEM's built-in example (demo answer: no AI service is configured)",
    );
  });

  it('says who else is generating the asset (409), and names the field a 400 refuses', async () => {
    campaigns.state.campaigns = [campaign()];
    api.reply({
      kind: 'error',
      status: 400,
      code: 'validation_failed',
      message: 'Some fields are not valid.',
      issues: [{ path: 'body.input.content', message: 'The content is empty.' }],
    });
    const { card, user } = await openAssets();
    const teaser = card('E-mail teaser');
    await user.click(within(teaser).getByRole('button', { name: 'Generate from brief' }));
    const form = await within(teaser).findByRole('form');
    await user.click(within(form).getByRole('button', { name: 'Generate' }));
    expect(await within(teaser).findByRole('alert')).toHaveTextContent('Error generating E-mail teaser');
    const content = within(form).getByLabelText('Paste the base content');
    expect(content).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getAllByText('The content is empty.')[0]).toBeVisible();

    // A colleague takes the asset meanwhile: the server answers 409 with their name.
    api.generatingAsSomeoneElse('email-teaser');
    await user.click(within(form).getByRole('button', { name: 'Generate' }));
    const alert = await within(teaser).findByText(/Ola Nowak is generating the E-mail teaser right now/);
    expect(alert).toBeVisible();
    // The list, asked again, says so on the card, and Generate waits for them.
    expect(await within(teaser).findByText('Ola Nowak is generating this E-mail teaser now.')).toBeVisible();
    expect(within(teaser).getByRole('button', { name: 'Generate from brief' })).toBeDisabled();
  });

  it('regenerates with a preset instruction, and with words of the user’s own', async () => {
    campaigns.state.campaigns = [campaign()];
    api.seed('email-teaser', ['Długi teaser o webinarze dla dyrektorów finansowych.']);
    api.reply(
      { kind: 'stream', events: [final('Krótki teaser.')] },
      { kind: 'stream', events: [final('Teaser dla zarządu.')] },
    );
    const { card, user } = await openAssets();
    const teaser = card('E-mail teaser');
    await user.click(within(teaser).getByRole('button', { name: 'Regenerate' }));
    const panel = within(teaser).getByRole('region', { name: 'Regenerate the E-mail teaser' });
    await user.click(within(panel).getByRole('button', { name: 'Shorter' }));
    expect(await within(teaser).findByText('Version 2')).toBeVisible();
    expect(within(teaser).getByText('Krótki teaser.')).toBeVisible();

    await user.click(within(teaser).getByRole('button', { name: 'Regenerate' }));
    const own = within(teaser).getByLabelText('Or say how to change it');
    await user.type(own, 'Dla zarządu');
    await user.click(
      within(within(teaser).getByRole('region', { name: 'Regenerate the E-mail teaser' })).getByRole(
        'button',
        {
          name: 'Regenerate',
        },
      ),
    );
    expect(await within(teaser).findByText('Teaser dla zarządu.')).toBeVisible();
    expect(api.state.generated.map((g) => g.body)).toEqual([
      { instruction: 'Shorter' },
      { instruction: 'Dla zarządu' },
    ]);
    expect(await within(teaser).findByText('Dla zarządu', { selector: 'dd' })).toBeVisible();
    expect(within(teaser).getByText('Version 3')).toBeVisible();
  });
});

describe('Campaign assets: counts against the channel’s limits', () => {
  it('says in words which count is over its limit, as it is typed too', async () => {
    campaigns.state.campaigns = [
      campaign({ brief: campaignBrief({ channels: ['Twitter / X', 'Google Ads'] }) }),
    ];
    api.seed('x-post', ['x'.repeat(270)]);
    api.seed('google-ads', [
      'Nagłówek 1: Webinar dla dyrektorów finansowych 2026\nOpis 1: Zapisz się na webinar o płynności finansowej.',
    ]);
    const { card, user } = await openAssets();

    const ads = within(card('Google Ads')).getByRole('list', {
      name: "Length against the Google Ads's limits",
    });
    const [headline, description] = within(ads).getAllByRole('listitem');
    expect(headline).toHaveTextContent('Headline:39 / 30 characters(9 over the limit)');
    expect(description).toHaveTextContent('Description:45 / 90 characters');
    expect(description).not.toHaveTextContent('over the limit');

    const x = card('X post');
    expect(within(x).getByRole('listitem')).toHaveTextContent('X post:270 / 280 characters');
    await user.click(within(x).getByRole('button', { name: 'Edit' }));
    const text = within(x).getByLabelText('Text of the X post');
    await user.type(text, ' dodatkowe słowa');
    const live = within(x).getAllByRole('list', { name: "Length against the X post's limits" })[1]!;
    expect(live).toHaveTextContent('X post:286 / 280 characters(6 over the limit)');
    expect(within(x).getByRole('alert')).toHaveTextContent(
      'The X post is too long for its channel: 286 characters, at most 280.',
    );
    expect(within(x).getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(text).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('Campaign assets: editing by hand', () => {
  it('saves an edit as the next version and moves the status', async () => {
    campaigns.state.campaigns = [campaign()];
    api.seed('email-teaser', ['Tekst wygenerowany.']);
    const { card, user } = await openAssets();
    const teaser = card('E-mail teaser');
    await user.click(within(teaser).getByRole('button', { name: 'Edit' }));
    const text = within(teaser).getByLabelText('Text of the E-mail teaser');
    expect(text).toHaveValue('Tekst wygenerowany.');
    await user.clear(text);
    await user.type(text, 'Tekst **poprawiony**.');
    // The formatted preview beside the text.
    expect(
      within(within(teaser).getByRole('group', { name: 'Preview' })).getByText('poprawiony').tagName,
    ).toBe('STRONG');
    await user.click(within(teaser).getByRole('button', { name: 'Save' }));
    expect(await within(teaser).findByText('Version 2')).toBeVisible();
    expect(api.state.saves).toEqual([
      { channel: 'email-teaser', text: 'Tekst **poprawiony**.', baseVersion: 1 },
    ]);
    expect(within(teaser).queryByLabelText('Text of the E-mail teaser')).toBeNull();
    expect(within(teaser).getByText('Edited from a text generated with')).toBeVisible();

    await user.selectOptions(within(teaser).getByLabelText('Status of the E-mail teaser'), 'Approved');
    await waitFor(() => expect(within(teaser).getByText('Approved', { selector: 'span' })).toBeVisible());
    expect(api.state.statuses).toEqual([{ channel: 'email-teaser', status: 'approved' }]);
  });

  it('keeps the typed text when someone saved first (409), shows both, and Keep mine restores it', async () => {
    campaigns.state.campaigns = [campaign()];
    api.seed('email-teaser', ['Tekst wygenerowany.']);
    const { card, user } = await openAssets();
    const teaser = card('E-mail teaser');
    await user.click(within(teaser).getByRole('button', { name: 'Edit' }));
    const text = within(teaser).getByLabelText('Text of the E-mail teaser');
    await user.clear(text);
    await user.type(text, 'Moja wersja teasera.');

    api.saveAsSomeoneElse('email-teaser', 'Ich wersja teasera.');
    await user.click(within(teaser).getByRole('button', { name: 'Save' }));

    const conflict = await within(teaser).findByText(
      /Someone changed the E-mail teaser while you were editing version 1/,
    );
    const box = conflict.closest('[role="alert"]') as HTMLElement;
    expect(await within(box).findByRole('group', { name: 'Version 2, the current one' })).toHaveTextContent(
      'Ich wersja teasera.',
    );
    expect(within(box).getByRole('group', { name: 'Yours, kept as version 3' })).toHaveTextContent(
      'Moja wersja teasera.',
    );
    expect(box).toHaveTextContent('Your text is not lost: it is kept as version 3.');
    // Nothing typed is lost.
    expect(text).toHaveValue('Moja wersja teasera.');

    await user.click(within(box).getByRole('button', { name: 'Keep mine' }));
    expect(await within(teaser).findByText('Version 4')).toBeVisible();
    expect(api.state.restores).toEqual([{ channel: 'email-teaser', version: 3 }]);
    expect(within(teaser).getByText('Moja wersja teasera.')).toBeVisible();
    expect(within(teaser).queryByLabelText('Text of the E-mail teaser')).toBeNull();
  });

  it('keeps a draft when the editor is closed, until it is saved or discarded', async () => {
    campaigns.state.campaigns = [campaign()];
    api.seed('email-teaser', ['Tekst wygenerowany.']);
    const { card, user } = await openAssets();
    const teaser = card('E-mail teaser');
    await user.click(within(teaser).getByRole('button', { name: 'Edit' }));
    await user.type(within(teaser).getByLabelText('Text of the E-mail teaser'), ' Dopisek.');
    await user.click(within(teaser).getByRole('button', { name: 'Close' }));
    await user.click(within(teaser).getByRole('button', { name: 'Edit (unsaved changes)' }));
    expect(within(teaser).getByLabelText('Text of the E-mail teaser')).toHaveValue(
      'Tekst wygenerowany. Dopisek.',
    );
    await user.click(within(teaser).getByRole('button', { name: 'Discard my changes' }));
    await user.click(within(teaser).getByRole('button', { name: 'Edit' }));
    expect(within(teaser).getByLabelText('Text of the E-mail teaser')).toHaveValue('Tekst wygenerowany.');
  });
});

describe('Campaign assets: versions', () => {
  it('lists every version, compares any two word by word, and restores an old one', async () => {
    campaigns.state.campaigns = [campaign()];
    api.seed('linkedin-post', [
      'Webinar dla CFO już w marcu.',
      'Webinar dla dyrektorów finansowych w marcu!',
      'Webinar dla dyrektorów finansowych w kwietniu!',
    ]);
    const { card, user } = await openAssets();
    const post = card('LinkedIn post');
    await user.click(within(post).getByRole('button', { name: 'Versions' }));
    const list = await within(post).findByRole('list', { name: 'Versions of the LinkedIn post' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual([
      'Version 3',
      'Version 2',
      'Version 1',
    ]);
    expect(items[0]).toHaveTextContent('Edited by hand');
    expect(items[0]).toHaveTextContent('Current');
    expect(items[0]).toHaveTextContent('Ola Nowak · Mar 14, 2026');
    expect(items[2]).toHaveTextContent('Generated');
    expect(within(items[0]!).queryByRole('button', { name: 'Restore version 3' })).toBeNull();

    // Versions 2 and 3 at first; then 1 and 3.
    const changes = () => within(post).getByRole('group', { name: /^Changes from version/ });
    expect(changes()).toHaveAccessibleName('Changes from version 2 to version 3');
    expect([...changes().querySelectorAll('del')].map((d) => d.textContent)).toEqual(['[removed: marcu]']);
    expect([...changes().querySelectorAll('ins')].map((d) => d.textContent)).toEqual(['[added: kwietniu]']);
    await user.selectOptions(within(post).getByLabelText('From'), 'Version 1');
    expect(changes()).toHaveAccessibleName('Changes from version 1 to version 3');
    expect([...changes().querySelectorAll('del')].map((d) => d.textContent)).toEqual([
      '[removed: CFO już]',
      '[removed: marcu.]',
    ]);
    expect(within(post).getByText(/From version 1 to version 3: 3 words added, 3 removed\./)).toBeVisible();

    await user.click(within(list).getByRole('button', { name: 'Restore version 1' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(4));
    expect(within(post).getAllByText('Version 4')[0]).toBeVisible();
    expect(api.state.restores).toEqual([{ channel: 'linkedin-post', version: 1 }]);
    expect(within(post).getAllByText('Webinar dla CFO już w marcu.')[0]).toBeVisible();
    await waitFor(() => expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('Restored'));
  });
});

describe('Campaign assets: tracked links', () => {
  it('shows the UTM tags and each link as the pack tags it; an editor changes the tags (a 400 at its field) and goes back to the channel’s own', async () => {
    campaigns.state.campaigns = [campaign()];
    api.seed('linkedin-post', [
      'Zapisy: https://gem.example/webinar. Partner: https://partner.example/?utm_source=partner',
    ]);
    const { card, user } = await openAssets();
    const post = card('LinkedIn post');
    const tracked = within(post).getByRole('region', { name: 'Tracked links' });
    expect(within(tracked).getByText('The channel’s UTM tags')).toBeVisible();
    const links = within(tracked).getByRole('list', {
      name: 'Links of the LinkedIn post as the pack hands them over',
    });
    expect(
      within(links)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'https://gem.example/webinar?utm_source=linkedin&utm_medium=social&utm_campaign=spring-webinar',
      'https://partner.example/?utm_source=partner (tagged already: left as it is)',
    ]);

    await user.click(within(tracked).getByRole('button', { name: 'Edit UTM tags of the LinkedIn post' }));
    const source = within(tracked).getByLabelText('UTM source');
    expect(source).toHaveValue('linkedin');
    await user.clear(source);
    await user.type(source, 'linkedin ads');
    await user.type(within(tracked).getByLabelText('UTM content (optional)'), 'variant-b');
    await user.click(within(tracked).getByRole('button', { name: 'Save UTM tags' }));
    expect(await within(tracked).findByRole('alert')).toHaveTextContent(
      'The UTM source takes letters, digits and . _ + - only, starting with a letter or a digit (no spaces).',
    );
    expect(source).toHaveAttribute('aria-invalid', 'true');
    expect(source).toHaveValue('linkedin ads');

    await user.clear(source);
    await user.type(source, 'linkedin-ads');
    await user.click(within(tracked).getByRole('button', { name: 'Save UTM tags' }));
    expect(await within(tracked).findByText('UTM tags edited')).toBeVisible();
    expect(within(links).getAllByRole('listitem')[0]).toHaveTextContent(
      'https://gem.example/webinar?utm_source=linkedin-ads&utm_medium=social&utm_campaign=spring-webinar&utm_content=variant-b',
    );
    expect(api.state.utms.at(-1)).toEqual({
      channel: 'linkedin-post',
      utm: { source: 'linkedin-ads', medium: 'social', content: 'variant-b' },
    });

    await user.click(within(tracked).getByRole('button', { name: 'Edit UTM tags of the LinkedIn post' }));
    await user.click(within(tracked).getByRole('button', { name: 'Use the channel’s own' }));
    expect(await within(tracked).findByText('The channel’s UTM tags')).toBeVisible();
    expect(api.state.utms.at(-1)).toEqual({ channel: 'linkedin-post', utm: null });
  });
});

describe('Campaign assets: a reader', () => {
  it('reads the texts, counts, provenance and versions, with no control that changes them', async () => {
    campaigns.state.campaigns = [campaign({ role: 'reader', sharing: 'team' })];
    api.seed('linkedin-post', ['Pierwsza wersja.', 'Druga wersja.'], 'in-review');
    const { section, card, user } = await openAssets();
    const post = card('LinkedIn post');
    expect(within(post).getByText('Druga wersja.')).toBeVisible();
    expect(within(post).getByText('In review')).toBeVisible();
    expect(within(post).getByRole('button', { name: 'Copy' })).toBeVisible();
    for (const name of ['Generate from brief', 'Regenerate', 'Edit', /Edit UTM tags/]) {
      expect(within(section).queryByRole('button', { name })).toBeNull();
    }
    expect(within(section).queryByRole('combobox')).toBeNull();
    expect(within(section).queryByLabelText('Add an asset for another channel')).toBeNull();
    expect(within(card('E-mail teaser')).getByText('No E-mail teaser yet.')).toBeVisible();

    await user.click(within(post).getByRole('button', { name: 'Versions' }));
    const list = await within(post).findByRole('list', { name: 'Versions of the LinkedIn post' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).queryByRole('button', { name: /Restore/ })).toBeNull();
    // Comparing is reading: the pickers are there.
    expect(within(post).getByLabelText('From')).toBeVisible();
  });
});
