import { brandVoicePaths, type StyleCheck, type StyleFinding } from '@gem/contracts/brand-voice';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import { json, serveApi } from '@/testing/api-server';
import { createQueryClient } from '@/lib/query-client';

import { countFindings } from '../style-findings-logic';
import { useStyleFindings } from '../use-style-findings';
import { StyleFindings } from './style-findings';

const server = serveApi();

const text = 'Oferujemy TANIE usługi.\nTo tanich rozwiązań nie ma!! Zapraszamy.';

function finding(
  rule: StyleFinding['rule'],
  found: string,
  fix?: StyleFinding['fix'],
  from = 0,
): StyleFinding {
  const start = text.indexOf(found, from);
  return {
    id: `${rule}:${start}:${start + found.length}`,
    rule,
    start,
    end: start + found.length,
    text: found,
    message: `${rule} message for ${found}`,
    reason: `${rule} reason`,
    ...(fix ? { fix } : {}),
  };
}

const banned = finding('banned', 'tanich', { replacement: 'przystępnych', safe: true });
const caps = finding('all-caps', 'TANIE', { replacement: 'tanie', safe: true });
const exclamation = finding('exclamation', '!!', { replacement: '!', safe: false });
const disclaimer: StyleFinding = {
  id: `disclaimer:${text.length}:${text.length}`,
  rule: 'disclaimer',
  start: text.length,
  end: text.length,
  text: '',
  message: 'The disclaimer for paid ads is missing.',
  reason: 'Paid ads must carry it.',
  fix: { replacement: '\n\nTo nie jest oferta.', safe: true },
};

function styleCheck(findings: StyleFinding[]): StyleCheck {
  return { findings, counts: countFindings(findings), score: 70, version: 4 };
}

function Owner({ initial }: { initial: StyleCheck }) {
  const [value, setValue] = useState(text);
  const state = useStyleFindings({ text: value, onChange: setValue, initial, target: 'paid-ads' });
  return (
    <>
      <textarea aria-label="Owner's text" value={value} onChange={(event) => setValue(event.target.value)} />
      <output aria-label="Owner's copy">{value}</output>
      <StyleFindings state={state} />
    </>
  );
}

function renderOwner(findings: StyleFinding[]) {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Owner initial={styleCheck(findings)} />
    </QueryClientProvider>,
  );
  const owned = () => screen.getByLabelText<HTMLOutputElement>("Owner's copy").value;
  return { user, owned };
}

describe('StyleFindings', () => {
  it('marks each finding in the text, a missing disclaimer at its place, and lists rule, message, reason and fix', async () => {
    renderOwner([banned, caps, exclamation, disclaimer]);
    const marked = screen.getByRole('group', { name: 'The text with its findings marked' });
    const marks = marked.querySelectorAll('mark');
    expect([...marks].map((mark) => mark.dataset.rule)).toEqual([
      'all-caps',
      'banned',
      'exclamation',
      'disclaimer',
    ]);
    expect(within(marked).getByRole('button', { name: 'tanich (Banned term)' })).toBeVisible();
    expect(within(marked).getByRole('button', { name: 'missing here (Missing disclaimer)' })).toBeVisible();
    // The unmarked text is there as it is.
    expect(marked.textContent).toContain('Oferujemy ');
    expect(screen.getByText('70')).toBeVisible();
    expect(screen.getByText('Checked against brand profile version 4.')).toBeVisible();
    const counts = screen.getByRole('list', { name: 'Findings per rule' });
    expect(
      within(counts)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual(['Banned term: 1', 'Missing disclaimer: 1', 'All caps: 1', 'Exclamation marks: 1']);
    const list = screen.getByRole('list', { name: 'Findings' });
    const item = within(list).getAllByRole('listitem')[1]!;
    expect(item).toHaveTextContent('Banned term');
    expect(item).toHaveTextContent('banned message for tanich');
    expect(item).toHaveTextContent('Why: banned reason');
    expect(item).toHaveTextContent('Suggested fix: replace „tanich” with „przystępnych”.');
  });

  it('takes the keyboard from a mark to its finding', async () => {
    const { user } = renderOwner([banned, caps]);
    await user.tab(); // the owner's field
    await user.tab();
    expect(screen.getByRole('button', { name: 'TANIE (All caps)' })).toHaveFocus();
    await user.tab();
    const mark = screen.getByRole('button', { name: 'tanich (Banned term)' });
    expect(mark).toHaveFocus();
    expect(mark).toHaveAccessibleDescription('banned message for tanich');
    await user.keyboard('{Enter}');
    expect(within(screen.getByRole('list', { name: 'Findings' })).getAllByRole('listitem')[1]).toHaveFocus();
  });

  it('Apply changes only the finding’s span, keeps the other findings where they moved, and Undo restores', async () => {
    const { user, owned } = renderOwner([banned, caps, disclaimer]);
    await user.click(screen.getByRole('button', { name: 'Apply: Replace „TANIE” with „tanie”' }));
    expect(owned()).toBe(text.replace('TANIE', 'tanie'));
    // The banned term after it still holds: its own Apply works on the new text.
    await user.click(screen.getByRole('button', { name: 'Apply: Replace „tanich” with „przystępnych”' }));
    expect(owned()).toBe('Oferujemy tanie usługi.\nTo przystępnych rozwiązań nie ma!! Zapraszamy.');
    expect(screen.getByText('Fix applied. Undo brings the text back.')).toHaveAttribute('role', 'status');
    expect(screen.getByText(/The score is the last check’s/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(owned()).toBe(text.replace('TANIE', 'tanie'));
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(owned()).toBe(text);
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
    expect(screen.getAllByRole('button', { name: /^Apply: / })).toHaveLength(3);
  });

  it('Apply all applies every safe fix and leaves the rest of the text byte-identical; Undo restores', async () => {
    const { user, owned } = renderOwner([banned, caps, exclamation, disclaimer]);
    await user.click(screen.getByRole('button', { name: 'Apply all (3)' }));
    expect(owned()).toBe(
      'Oferujemy tanie usługi.\nTo przystępnych rozwiązań nie ma!! Zapraszamy.\n\nTo nie jest oferta.',
    );
    // The unsafe fix is left, still marked where it moved to.
    const marked = screen.getByRole('group', { name: 'The text with its findings marked' });
    expect(within(marked).getByRole('button', { name: '!! (Exclamation marks)' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Apply all' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Apply: Replace [ !! ] with [ ! ]' }));
    expect(owned()).toBe(
      'Oferujemy tanie usługi.\nTo przystępnych rozwiązań nie ma! Zapraszamy.\n\nTo nie jest oferta.',
    );
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(owned()).toBe(text);
  });

  it('says when the text changed since the check, and checks it again', async () => {
    server.on('POST', brandVoicePaths.check, (_req, body, res) => {
      const sent = JSON.parse(body) as { text: string; target?: string };
      json(res, 200, { findings: [], counts: countFindings([]), score: 100, version: null, sent });
    });
    const { user } = renderOwner([banned]);
    await user.type(screen.getByLabelText("Owner's text"), ' Nowe.');
    expect(screen.getByRole('note')).toHaveTextContent(
      'The text has changed since it was checked. Check it again to see its findings.',
    );
    expect(screen.queryByRole('group', { name: 'The text with its findings marked' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByText('Checked: nothing found.')).toBeVisible();
    expect(
      screen.getByText('No brand profile is saved yet: only the house’s typography was checked.'),
    ).toBeVisible();
    expect(screen.getByText('Nothing found: the text follows the brand profile.')).toBeVisible();
    const call = server.state.requests.find((request) => request.url.pathname === brandVoicePaths.check);
    expect(call?.method).toBe('POST');
  });

  it('says a finding that no longer matches the text is stale, and changes nothing', async () => {
    const stale = { ...banned, text: 'taniej' };
    const { user, owned } = renderOwner([stale]);
    await user.click(screen.getByRole('button', { name: 'Apply: Replace „taniej” with „przystępnych”' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This finding no longer matches the text: the text changed after it was checked. Choose Check again to see what holds now.',
    );
    expect(owned()).toBe(text);
  });
});
