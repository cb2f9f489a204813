import { brandVoicePaths, type StyleCheck, type StyleFinding } from '@gem/contracts/brand-voice';
import { briefStyleText } from '@gem/contracts/brief-creator-style';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';

import { countFindings } from '@/lib/brand-voice/style-findings-logic';
import { json, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

import {
  brief,
  fakeBriefApi,
  FINISHED_ID,
  finishedBrief,
  chatResponse,
  type ChatTurnReply,
} from '../testing/fake-brief-api';

// Issue 31: the brief's style check, of the brief as the exports write it (briefStyleText): the
// findings that came with the turn in the preview, Apply and Apply all into the fields (and the
// session), Undo; a finished brief checked on opening, read only.

const server = serveApi();
const api = fakeBriefApi(server);

beforeEach(() => localStorage.clear());

const proposed = brief({
  campaignName: 'Webinar dla CFO',
  primaryObjective: 'Tani webinar dla petentów.',
  channels: ['LinkedIn', 'tani mailing'],
});
// 'Webinar dla CFO\n\nTani webinar dla petentów.\n\nLinkedIn\n\ntani mailing'
const text = briefStyleText(proposed).text;

function banned(word: string, from: number, replacement: string, safe = true): StyleFinding {
  const start = text.indexOf(word, from);
  return {
    id: `banned:${start}`,
    rule: 'banned',
    start,
    end: start + word.length,
    text: word,
    message: `„${word}” is a banned term.`,
    reason: 'Brzmi jak niska jakość.',
    fix: { replacement, safe },
  };
}

const findings = [banned('Tani', 0, 'Przystępny'), banned('tani', 40, 'przystępny')];
const check = (list: StyleFinding[]): StyleCheck => ({
  findings: list,
  counts: countFindings(list),
  score: 80,
  version: 4,
});

/** A turn whose final event carries the brief's style check. */
function checkedTurn(style: StyleCheck): ChatTurnReply {
  const response = chatResponse({ response: 'Jaki jest budżet?', proposedBriefData: proposed });
  return {
    kind: 'stream',
    events: [
      { type: 'session', sessionId: response.sessionId },
      { type: 'delta', text: response.response },
      { type: 'final', response, briefStyle: style },
    ],
  };
}

async function chatTurn() {
  const view = renderRoute('/tools/brief-creator?session=new');
  await screen.findByRole('heading', { level: 1, name: 'Brief creator' });
  const chat = screen.getByRole('region', { name: 'Chat with the assistant' });
  await view.user.type(within(chat).getByLabelText('Your message'), 'Webinar{Enter}');
  await within(chat).findByText('Jaki jest budżet?');
  const preview = screen.getByRole('region', { name: 'Brief preview' });
  await view.user.click(within(preview).getByRole('button', { name: 'Show fields' }));
  return { ...view, preview };
}

describe('the brief preview’s style check', () => {
  it('shows the findings that came with the turn; Apply all changes the fields and saves them; Undo brings them back', async () => {
    api.reply(checkedTurn(check(findings)));
    const { user, preview } = await chatTurn();
    const style = within(preview).getByRole('region', { name: 'Brand voice and style' });
    expect(within(style).getByText('Checked against brand profile version 4.')).toBeVisible();
    expect(within(style).getByRole('button', { name: 'Tani (Banned term)' })).toBeVisible();
    expect(within(style).getByRole('button', { name: 'tani (Banned term)' })).toBeVisible();

    await user.click(within(style).getByRole('button', { name: 'Apply all (2)' }));
    expect(within(preview).getByLabelText('Primary objective')).toHaveValue(
      'Przystępny webinar dla petentów.',
    );
    expect(within(preview).getByDisplayValue('przystępny mailing')).toBeVisible();
    await waitFor(() =>
      expect(api.state.saves.at(-1)?.briefData).toMatchObject({
        primaryObjective: 'Przystępny webinar dla petentów.',
        channels: ['LinkedIn', 'przystępny mailing'],
      }),
    );

    await user.click(within(style).getByRole('button', { name: 'Undo' }));
    expect(within(preview).getByLabelText('Primary objective')).toHaveValue('Tani webinar dla petentów.');
    expect(within(preview).getByDisplayValue('tani mailing')).toBeVisible();
    expect(within(style).getByRole('button', { name: 'Tani (Banned term)' })).toBeVisible();
  });

  it('applies one finding into its own field, and checks the brief as it is now on demand', async () => {
    const bodies: unknown[] = [];
    server.on('POST', brandVoicePaths.check, (_req, body, res) => {
      bodies.push(JSON.parse(body));
      json(res, 200, check([]));
    });
    api.reply(checkedTurn(check(findings)));
    const { user, preview } = await chatTurn();
    const style = within(preview).getByRole('region', { name: 'Brand voice and style' });
    await user.click(within(style).getByRole('button', { name: 'Apply: Replace „tani” with „przystępny”' }));
    expect(within(preview).getByDisplayValue('przystępny mailing')).toBeVisible();
    expect(within(preview).getByLabelText('Primary objective')).toHaveValue('Tani webinar dla petentów.');

    // Typed by hand: the findings are out of date until the brief is checked again.
    await user.type(within(preview).getByLabelText('Primary objective'), ' Teraz.');
    expect(within(style).getByText(/The text has changed since it was checked/)).toBeVisible();
    await user.click(within(style).getByRole('button', { name: 'Check again' }));
    expect(
      await within(style).findByText('Nothing found: the text follows the brand profile.'),
    ).toBeVisible();
    expect(bodies).toEqual([
      {
        text: 'Webinar dla CFO\n\nTani webinar dla petentów. Teraz.\n\nLinkedIn\n\nprzystępny mailing',
        target: 'brief-creator',
      },
    ]);
  });
});

describe('a finished brief’s style check', () => {
  it('is checked on opening and shown read only', async () => {
    const bodies: unknown[] = [];
    server.on('POST', brandVoicePaths.check, (_req, body, res) => {
      bodies.push(JSON.parse(body));
      json(res, 200, check(findings));
    });
    api.state.finished = [finishedBrief({ data: proposed })];
    renderRoute(`/tools/brief-creator/finished/${FINISHED_ID}`);
    const style = await screen.findByRole('region', { name: 'Brand voice and style' });
    expect(await within(style).findByRole('button', { name: 'Tani (Banned term)' })).toBeVisible();
    expect(bodies).toEqual([{ text, target: 'brief-creator' }]);
    expect(within(style).queryByRole('button', { name: /Apply/ })).toBeNull();
    expect(within(style).getByRole('button', { name: 'Check again' })).toBeVisible();
  });
});
