import type { StyleCheckResult, StyleRules } from './style-check';
import { checkStyle, compileStyleRules, type CompiledStyleRules } from './style-check';
import { serveBudgetedWorker } from '../budgeted-worker';

/**
 * The style check's thread for long texts (brand-voice.ts `checkText`): a 10,000-word text takes
 * tens of milliseconds, which the server's event loop should not wait for. Rules are compiled
 * once per key (a profile version and a target) and kept for the next texts; the rules cross
 * over only when the thread does not have them yet, since copying them costs the event loop too. In the bundle it is
 * its own entry point, dist/style-check.worker.js (build.mjs).
 */

/** Rules are sent only when the thread asks for them (`need-rules`): they are large to copy. */
export type StyleCheckRequest = { key: string; rules?: StyleRules; text: string };
export type StyleCheckAnswer =
  { type: 'result'; result: StyleCheckResult } | { type: 'need-rules' } | { type: 'error'; message: string };

/** Compiled rules by key; a few versions and targets at most, the oldest dropped first. */
const compiled = new Map<string, CompiledStyleRules>();
const KEEP = 16;

serveBudgetedWorker(({ key, rules, text }: StyleCheckRequest): StyleCheckAnswer => {
  try {
    let ready = compiled.get(key);
    if (!ready) {
      if (!rules) return { type: 'need-rules' };
      ready = compileStyleRules(rules);
      compiled.set(key, ready);
      if (compiled.size > KEEP) compiled.delete(compiled.keys().next().value!);
    }
    return { type: 'result', result: checkStyle(text, ready) };
  } catch (err) {
    return { type: 'error', message: err instanceof Error ? err.message : String(err) };
  }
});
