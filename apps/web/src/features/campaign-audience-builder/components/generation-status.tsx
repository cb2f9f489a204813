import { useEffect, useState } from 'react';

import { SparkIcon } from '@/components/ui/icons';
import { OutputPlaceholder } from '@/components/ui/output-surface';
import { Panel } from '@/components/ui/panel';
import { GenerationProblemAlert } from '@/lib/ai/components/generation-problem';
import type { GenerationProblem } from '@/lib/ai/generation-errors';

import styles from './campaign-audience-builder.module.css';

/** What GEM does while the user waits, in the order it does it. */
const steps = [
  'Reading the campaign’s members and responses',
  'Comparing responders with the rest',
  'Asking the AI for the segments',
  'Counting who each report reaches',
] as const;
/** About when each step starts, in seconds (the whole takes several seconds). */
const stepStarts = [0, 1.5, 3, 7] as const;

type GenerationStatusProps =
  | { idle: true; problem?: undefined }
  | { idle?: undefined; problem: GenerationProblem }
  | { idle?: undefined; problem?: undefined };

/** The results area before a generation (idle), during it (loading) and after a failure (error). */
export function GenerationStatus({ idle, problem }: GenerationStatusProps) {
  if (idle) {
    return (
      <OutputPlaceholder>
        <SparkIcon />
        <p>
          Pick a campaign (or paste its id), say what the next wave should achieve, and choose Generate
          Segments. You get the segments to target, ready CRM reports, and the facts they come from.
        </p>
      </OutputPlaceholder>
    );
  }
  if (problem) return <GenerationProblemAlert problem={problem} />;
  return <Loading />;
}

/** 'Generating segments…', a bar that fills as the usual steps pass, and which step is under way. */
function Loading() {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setSeconds((s) => s + 0.5), 500);
    return () => clearInterval(timer);
  }, []);
  const current = stepStarts.findLastIndex((start) => seconds >= start);
  // Eases towards 95 % and never claims to be done before the answer is.
  const percent = Math.round(5 + 90 * (1 - Math.exp(-seconds / 6)));
  return (
    <Panel elevation="flat" className={styles.loading}>
      <p className={styles.loadingTitle} role="status">
        Generating segments… This takes a few seconds.
      </p>
      <div
        className={styles.progress}
        role="progressbar"
        aria-label="Generating segments"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <span className={styles.progressFill} style={{ width: `${percent}%` }} />
      </div>
      <ol className={styles.steps}>
        {steps.map((step, index) => (
          <li
            key={step}
            className={styles.step}
            data-state={index < current ? 'done' : index === current ? 'current' : 'next'}
            aria-current={index === current ? 'step' : undefined}
          >
            {step}
          </li>
        ))}
      </ol>
    </Panel>
  );
}
