import {
  CAMPAIGN_ID_ERROR,
  CAMPAIGN_ID_LENGTH,
  sanitizeCampaignId,
  TOPIC_MAX,
  type GenerateSegmentsRequest,
} from '@gem/contracts/campaign-audience-builder';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

import { TextAreaField, TextInput } from '@/components/ui/fields';
import fieldStyles from '@/components/ui/fields.module.css';
import { Split } from '@/components/ui/split';
import { GenerateActions, InputPanel } from '@/components/ui/tool-layout';
import { aiStatusQueryOptions } from '@/lib/ai/get-ai-status';

import { useGenerateSegments } from '../api/generate-segments';
import { describeAudienceError } from '../problem';
import type { ReportAction } from '../report-action';
import styles from './campaign-audience-builder.module.css';
import { CampaignPicker } from './campaign-picker';
import { GenerationStatus } from './generation-status';
import { SegmentResults } from './segment-results';

export const GOAL_REQUIRED = 'Enter the marketing goal.';

/** What is wrong with each field, or null. */
function checkInputs(campaignId: string, goal: string) {
  return {
    campaignId: campaignId.length === CAMPAIGN_ID_LENGTH ? null : CAMPAIGN_ID_ERROR,
    goal: goal.trim() === '' ? GOAL_REQUIRED : goal.length > TOPIC_MAX ? 'too-long' : null,
  };
}

/**
 * The Automatic tab: Campaign ID (letters and digits, exactly 18) and Marketing Goal, a picker
 * of recent campaigns that fills the id, 'Generate Segments', then the loading, error or results
 * state below. `?campaignId=` and `?goal=` fill the fields (a campaign opens the builder so). A failure keeps the inputs; a field's problem shows once it was left or a
 * generation was asked for.
 */
export function AutomaticBuilder({ reportAction }: { reportAction?: ReportAction }) {
  const idFieldId = useId();
  // Opened from a campaign: its CRM campaign id and its objective come in the address.
  const [params] = useSearchParams();
  const [campaignId, setCampaignId] = useState(() => sanitizeCampaignId(params.get('campaignId') ?? ''));
  const [goal, setGoal] = useState(() => (params.get('goal') ?? '').slice(0, TOPIC_MAX));
  const [touched, setTouched] = useState({ campaignId: false, goal: false });
  const [submitted, setSubmitted] = useState<GenerateSegmentsRequest | null>(null);
  const idRef = useRef<HTMLInputElement>(null);
  const goalRef = useRef<HTMLTextAreaElement>(null);
  const resultsRef = useRef<HTMLElement>(null);
  const generation = useGenerateSegments();
  const queryClient = useQueryClient();
  const problems = checkInputs(campaignId, goal);
  const showIdProblem = touched.campaignId && problems.campaignId !== null;
  const showGoalProblem = touched.goal && problems.goal === GOAL_REQUIRED;

  const problem = generation.isError ? describeAudienceError(generation.error) : null;
  useEffect(() => {
    // The server says no AI service is set up: the page shows the notice at once.
    if (problem?.notConfigured) {
      queryClient.setQueryData(aiStatusQueryOptions.queryKey, {
        configured: false,
        provider: null,
        model: null,
      });
    }
  }, [problem?.notConfigured, queryClient]);

  function submit() {
    setTouched({ campaignId: true, goal: true });
    if (problems.campaignId) {
      idRef.current?.focus();
      return;
    }
    if (problems.goal) {
      goalRef.current?.focus();
      return;
    }
    if (generation.isPending) return;
    const request = { campaignId, topic: goal.trim() };
    setSubmitted(request);
    generation.mutate(request);
    // On a phone the results sit below the form: bring them into view (not when they are in it).
    const results = resultsRef.current;
    if (results && results.getBoundingClientRect().top > window.innerHeight * 0.6) {
      const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)')?.matches;
      results.scrollIntoView?.({ behavior: reduced ? 'auto' : 'smooth', block: 'start' });
    }
  }

  function pick(id: string) {
    setCampaignId(sanitizeCampaignId(id));
    setTouched((t) => ({ ...t, campaignId: true }));
    idRef.current?.focus();
  }

  return (
    <div className={styles.builder}>
      <Split align="start" className={styles.workspace}>
        <InputPanel
          title="Campaign and goal"
          description="GEM compares who responded to the campaign with who did not, then suggests who to reach next."
          onSubmit={submit}
        >
          <div className={fieldStyles.field}>
            <label className={fieldStyles.label} htmlFor={idFieldId}>
              Campaign ID
            </label>
            <p id={`${idFieldId}-hint`} className={fieldStyles.hint}>
              The campaign&rsquo;s 18-character CRM id: letters and digits. Or pick one from Recent campaigns.
            </p>
            <TextInput
              ref={idRef}
              id={idFieldId}
              className={styles.mono}
              value={campaignId}
              required
              autoComplete="off"
              spellCheck={false}
              inputMode="text"
              placeholder="e.g. 701Qy00000AbCdEfGH"
              aria-invalid={showIdProblem || undefined}
              aria-describedby={[
                `${idFieldId}-hint`,
                `${idFieldId}-count`,
                showIdProblem ? `${idFieldId}-error` : null,
              ]
                .filter(Boolean)
                .join(' ')}
              onChange={(event) => setCampaignId(sanitizeCampaignId(event.target.value))}
              onBlur={() => setTouched((t) => ({ ...t, campaignId: campaignId !== '' || t.campaignId }))}
            />
            <div className={fieldStyles.meta}>
              {showIdProblem ? (
                <p id={`${idFieldId}-error`} className={fieldStyles.error} role="alert">
                  {CAMPAIGN_ID_ERROR}
                </p>
              ) : (
                <span />
              )}
              <p id={`${idFieldId}-count`} className={fieldStyles.count}>
                <span className="visually-hidden">Characters: </span>
                {campaignId.length} / {CAMPAIGN_ID_LENGTH}
              </p>
            </div>
          </div>
          <div className={styles.goalField}>
            <TextAreaField
              ref={goalRef}
              label="Marketing Goal"
              hint="What the next wave should achieve, e.g. 'More CFOs of mid-size banks at the spring webinar'."
              subject="The marketing goal"
              value={goal}
              onValueChange={setGoal}
              limit={TOPIC_MAX}
              rows={4}
              required
              aria-invalid={showGoalProblem || undefined}
              onBlur={() => setTouched((t) => ({ ...t, goal: goal !== '' || t.goal }))}
            />
            {showGoalProblem ? (
              <p className={fieldStyles.error} role="alert">
                {GOAL_REQUIRED}
              </p>
            ) : null}
          </div>
          <GenerateActions label="Generate Segments" ready isGenerating={generation.isPending} />
        </InputPanel>
        <CampaignPicker selectedId={campaignId} onPick={pick} />
      </Split>

      <section
        ref={resultsRef}
        className={styles.results}
        aria-label="Segments"
        aria-busy={generation.isPending}
      >
        {generation.isPending ? (
          <GenerationStatus />
        ) : problem ? (
          <GenerationStatus problem={problem} />
        ) : generation.data && submitted ? (
          <SegmentResults
            result={generation.data}
            campaignId={submitted.campaignId}
            reportAction={reportAction}
          />
        ) : (
          <GenerationStatus idle />
        )}
      </section>
    </div>
  );
}
