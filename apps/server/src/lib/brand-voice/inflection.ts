import { type BudgetedWorkerEvent, createBudgetedWorker } from '../budgeted-worker';
import type { ExpandedTerm } from './inflection-core';
import type { InflectionAnswer, InflectionRequest } from './inflection.worker';
import { TermLimitError, termIssues } from './term-limits';

export type { ExpandedTerm, FormSource } from './inflection-core';

/**
 * Expands a profile's terms to their inflected forms (inflection-core.ts, decision 028) in a
 * worker thread, as a profile is saved; the style check then matches the stored forms without
 * the dictionary. The worker keeps its dictionary between saves and stops after `idleMs` with
 * nothing to do (its heap is about 150 MB while it lives).
 */
export type Inflection = {
  /** The terms' forms, in the terms' order; refuses terms termIssues refuses (TermLimitError). */
  expand(terms: readonly string[], signal?: AbortSignal): Promise<ExpandedTerm[]>;
  close(): Promise<void>;
};

export class InflectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InflectionError';
  }
}

export type InflectionOptions = {
  /** Time one list of terms may take in the worker (the dictionary's load is not counted). */
  budgetMs?: number;
  /** How long the worker (and its dictionary) stays with nothing to do. */
  idleMs?: number;
  onEvent?: (event: BudgetedWorkerEvent) => void;
};

export function createInflection(options: InflectionOptions = {}): Inflection {
  const worker = createBudgetedWorker<InflectionRequest, InflectionAnswer>({
    script: new URL('./inflection.worker.ts', import.meta.url),
    limits: { budgetMs: options.budgetMs ?? 10_000, idleMs: options.idleMs ?? 10 * 60_000, maxMemoryMb: 512 },
    failure: { subject: 'the terms', error: (message) => new InflectionError(message) },
    onEvent: options.onEvent,
  });
  return {
    async expand(terms, signal) {
      const issues = termIssues(terms);
      if (issues.length > 0) throw new TermLimitError(issues);
      if (terms.length === 0) return [];
      const answer = await worker.run({ terms: [...terms] }, signal);
      if (answer.type === 'error') throw new InflectionError(answer.message);
      return answer.terms;
    },
    close: () => worker.close(),
  };
}
