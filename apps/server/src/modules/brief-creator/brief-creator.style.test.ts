import { applyAll, applyFix } from '@gem/contracts/brand-voice-apply';
import type { BriefChatEvent } from '@gem/contracts/brief-creator';
import { briefStyleText, briefWithFixes } from '@gem/contracts/brief-creator-style';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandProfileSample } from '../../../test/ai-harness';
import { createBrandVoice } from '../../lib/brand-voice/brand-voice';
import { createInflection } from '../../lib/brand-voice/inflection';
import { turn, useBriefCreatorHarness } from './brief-creator.test-support';

/**
 * Issue 31 for the brief creator: the final event of a turn carries the style check of the
 * brief as it stands after the turn, of the text `briefStyleText` writes (the page checks the
 * same text, and Apply puts each fix back in its field), beside the check of the assistant's
 * answer. Through the real app, the OpenAI-compatible test server and a real database.
 */

const { t, chatStream } = useBriefCreatorHarness();
const inflection = createInflection();
const USER = 'brief-stylist';

beforeAll(async () => {
  await createBrandVoice({ db: t.database.db, inflection }).save({
    profile: brandProfileSample(),
    basedOn: null,
    userId: null,
  });
}, 60_000);
afterAll(() => inflection.close());

function finalEvent(events: BriefChatEvent[]) {
  const last = events.at(-1);
  if (last?.type !== 'final') throw new Error(JSON.stringify(events));
  return last;
}

describe("the brief creator's final event", () => {
  it("carries the style check of the brief after the turn, with fixes that go back into the brief's fields", async () => {
    t.ai.enqueue(
      turn('Jaki jest budżet?', {
        campaignName: 'Webinar dla CFO',
        primaryObjective: 'Tani webinar: każdy petent skorzysta.',
        channels: ['LinkedIn', 'tani mailing', 'Tania reklama'],
      }),
    );
    const final = finalEvent(await chatStream(USER, { message: 'Webinar dla CFO.', language: 'Polish' }));
    const brief = final.response.proposedBriefData!;
    const { text } = briefStyleText(brief);
    expect(text).toBe(
      'Webinar dla CFO\n\nTani webinar: każdy petent skorzysta.\n\nLinkedIn\n\ntani mailing\n\nTania reklama',
    );

    const style = final.briefStyle!;
    expect(style.version).toBe(1);
    const marked = style.findings.map((f) => [f.rule, text.slice(f.start, f.end)]);
    expect(marked).toEqual(
      expect.arrayContaining([
        ['banned', 'Tani'],
        ['preferred', 'petent'],
        ['banned', 'tani'],
        ['banned', 'Tania'],
      ]),
    );
    // The assistant's answer has its own check still.
    expect(final.style?.findings).toEqual([]);

    // Apply all, put back into the fields, gives the brief whose text is the applied text.
    const fixed = briefWithFixes(brief, { all: style.findings })!;
    expect(briefStyleText(fixed).text).toBe(applyAll(text, style.findings));
    expect(fixed.primaryObjective).toBe('Przystępny webinar: każdy klient skorzysta.');
    // An inflected form's fix is not safe: Apply all leaves it for the user to read over.
    expect(fixed.channels).toEqual(['LinkedIn', 'przystępny mailing', 'Tania reklama']);
    expect(fixed.campaignName).toBe('Webinar dla CFO');

    // Apply one: the fix goes into its own field only, that one too when it is not safe.
    const inflected = style.findings.find((f) => f.text === 'Tania')!;
    const one = briefWithFixes(brief, { one: inflected })!;
    expect(briefStyleText(one).text).toBe(applyFix(text, inflected));
    expect(one).toEqual({
      ...brief,
      channels: ['LinkedIn', 'tani mailing', `${inflected.fix!.replacement} reklama`],
    });
  });

  it('carries none while the brief has no words in it', async () => {
    t.ai.enqueue(turn('Jak nazywa się kampania?'));
    const final = finalEvent(await chatStream(USER, { message: 'Dzień dobry.', language: 'Polish' }));
    expect(final).not.toHaveProperty('briefStyle');
    expect(final.style?.version).toBe(1);
  });
});
