// The brand voice's style check (issue 31): the targets are a 10,000-word Polish text checked
// against 500 terms in under 50 ms at p95, 500 terms expanded to their forms (a profile save) in
// under 2 s, and neither holding up the event loop for more than 50 ms. Runs GEM's TypeScript
// through tsx, no build needed:
//   npx tsx bench/style-check.mjs [--runs 5] [--checks 40]
// 1. The check: a text of 10,000 words drawn from the dictionary's forms, with some of the terms
//    planted in it, against 500 terms (450 words, 50 phrases of 2-4 words; banned, preferred and
//    names) and the typography rules; rules compiled once, then --checks checks per run on this
//    thread. Each run's p50 and p95; the event loop's longest stall measured meanwhile (the check
//    runs on this thread, so that is the longest check).
// 2. The expansion: the inflection worker (lib/brand-voice/inflection.ts) started and its
//    dictionary loaded (once per worker), then 500 new terms per run expanded; this thread's
//    event-loop delay meanwhile, against the same time with nothing running (the reference).
// Each figure is the median over --runs runs. Results: bench/style-check.md.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadPolishDictionary } from '../apps/server/src/lib/brand-voice/inflection-core.ts';
import { createBudgetedWorker } from '../apps/server/src/lib/budgeted-worker.ts';
import { createInflection } from '../apps/server/src/lib/brand-voice/inflection.ts';
import { checkStyle, compileStyleRules } from '../apps/server/src/lib/brand-voice/style-check.ts';

const { values: opts } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, checks: { type: 'string', default: '40' } },
});
const RUNS = Number(opts.runs);
const CHECKS = Number(opts.checks);
const WORDS = 10_000;
const TERMS = 500;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (value) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));

// A seeded generator: the same text and terms every run of the script.
let seed = 2026;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = (list) => list[Math.floor(random() * list.length)];

// Lemmas with affix flags, lower case, from the dictionary's own file.
const dicPath = path.join(path.dirname(createRequire(import.meta.url).resolve('dictionary-pl')), 'index.dic');
const lemmas = readFileSync(dicPath, 'utf8')
  .split('\n')
  .slice(1)
  .filter((line) => /^[a-ząćęłńóśźż]{3,}\/\w+$/u.test(line))
  .map((line) => line.split('/')[0]);

console.log(
  `Node ${process.version}, ${cpus().length} cores, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
let started = performance.now();
const dictionary = await loadPolishDictionary();
console.log(
  `dictionary loaded on this thread (for the text and terms) in ${ms(performance.now() - started)} ms`,
);

/** 500 terms: 450 words and 50 phrases of 2-4 words, each with its forms. */
function makeTerms() {
  const terms = [];
  for (let i = 0; i < TERMS; i += 1) {
    const size = i < 450 ? 1 : 2 + Math.floor(random() * 3);
    terms.push(Array.from({ length: size }, () => pick(lemmas)).join(' '));
  }
  return terms;
}

// ---- 1. The check ---------------------------------------------------------------------------

const terms = makeTerms();
const expanded = terms.map((term) => dictionary.expandTerm(term));
const rules = {
  banned: expanded
    .slice(0, 300)
    .map(({ term, words }) => ({ term, forms: words, reason: 'bench', replacement: 'x' })),
  preferred: expanded
    .slice(300, 450)
    .map(({ term, words }) => ({ term: 'y', replaces: [{ word: term, forms: words }] })),
  names: terms.slice(450).map((term) => term.replace(/(^|\s)\p{Ll}/gu, (m) => m.toUpperCase())),
  disclaimers: ['Niniejszy materiał nie stanowi porady.'],
  limits: { characters: 50_000, words: 9_000 },
};

// The text: forms of 1,000 random lemmas, sentences of about 12 words, a planted term every 200 words.
const vocabulary = Array.from({ length: 1_000 }, () => dictionary.expandTerm(pick(lemmas)).words[0]);
const words = [];
while (words.length < WORDS) {
  if (words.length % 200 === 0) {
    const term = pick(expanded);
    for (const forms of term.words) words.push(pick(forms));
  } else {
    words.push(pick(pick(vocabulary)));
  }
}
let text = '';
for (let i = 0; i < words.length; i += 1) {
  const sentenceStart = i === 0 || text.endsWith('. ');
  const word = sentenceStart ? words[i].charAt(0).toUpperCase() + words[i].slice(1) : words[i];
  text += word + (random() < 0.08 ? '. ' : random() < 0.05 ? ', ' : ' ');
}
text = `${text.trimEnd()}. „Cytat” i "cytat", AI oraz ESG!`;

started = performance.now();
const compiled = compileStyleRules(rules);
const compileMs = performance.now() - started;
for (let i = 0; i < 5; i += 1) checkStyle(text, compiled); // warm-up: the JIT

const checkRuns = [];
for (let run = 0; run < RUNS; run += 1) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const times = [];
  let result;
  for (let i = 0; i < CHECKS; i += 1) {
    started = performance.now();
    result = checkStyle(text, compiled);
    times.push(performance.now() - started);
    // A turn of the event loop between checks, as between two requests.
    await new Promise((resolve) => setImmediate(resolve));
  }
  delay.disable();
  checkRuns.push({
    p50: median(times),
    p95: percentile(times, 95),
    stall: delay.max / 1e6,
    findings: result.findings.length,
  });
}

// ---- 1b. The same check as the Check text page runs it: in the style check's worker --------

const checker = createBudgetedWorker({
  script: new URL('../apps/server/src/lib/brand-voice/style-check.worker.ts', import.meta.url),
  limits: { budgetMs: 5_000, idleMs: 60_000, maxMemoryMb: 256 },
  failure: { subject: 'the text', error: (message) => new Error(message) },
});
await checker.run({ key: 'bench', rules, text }); // start, compile, warm up
for (let i = 0; i < 4; i += 1) await checker.run({ key: 'bench', text });
const workerRuns = [];
for (let run = 0; run < RUNS; run += 1) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const ticker = setInterval(() => {}, 5);
  delay.enable();
  const times = [];
  for (let i = 0; i < CHECKS; i += 1) {
    started = performance.now();
    await checker.run({ key: 'bench', text });
    times.push(performance.now() - started);
  }
  delay.disable();
  clearInterval(ticker);
  workerRuns.push({ p50: median(times), p95: percentile(times, 95), stall: delay.max / 1e6 });
}
await checker.close();

// ---- 2. The expansion -----------------------------------------------------------------------

/** This thread's event-loop delay while `work` runs (a timer every 5 ms keeps the loop busy). */
async function withLoopDelay(work) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const ticker = setInterval(() => {}, 5);
  delay.enable();
  const startedAt = performance.now();
  const value = await work();
  const took = performance.now() - startedAt;
  delay.disable();
  clearInterval(ticker);
  return { value, took, stall: delay.max / 1e6 };
}

const inflection = createInflection();
const cold = await withLoopDelay(() => inflection.expand(['tani']));
const expandRuns = [];
for (let run = 0; run < RUNS; run += 1) {
  const fresh = makeTerms();
  const busy = await withLoopDelay(() => inflection.expand(fresh));
  const idle = await withLoopDelay(
    () => new Promise((resolve) => setTimeout(resolve, Math.max(50, busy.took))),
  );
  expandRuns.push({
    took: busy.took,
    stall: busy.stall,
    idleStall: idle.stall,
    forms: busy.value.reduce((n, t) => n + t.words.flat().length, 0),
  });
}
await inflection.close();

// ---- Report ---------------------------------------------------------------------------------

const med = (list, key) => median(list.map((item) => item[key]));
console.log(
  `\ncheck: ${WORDS.toLocaleString('en')} words (${text.length.toLocaleString('en')} characters), ${TERMS} terms (${compiled.banned.byFirst.size + compiled.preferred.byFirst.size} first-word forms indexed)`,
);
console.log(`  compile the rules once: ${ms(compileMs)} ms`);
console.log(
  `  per check, median of ${RUNS} runs of ${CHECKS}: p50 ${ms(med(checkRuns, 'p50'))} ms, p95 ${ms(med(checkRuns, 'p95'))} ms (worst run's p95 ${ms(Math.max(...checkRuns.map((r) => r.p95)))} ms); ${checkRuns[0].findings} findings`,
);
console.log(
  `  event loop's longest stall meanwhile: ${ms(med(checkRuns, 'stall'))} ms (worst run ${ms(Math.max(...checkRuns.map((r) => r.stall)))} ms)`,
);
console.log(
  `\nthe same check in the style check's worker (the Check text page's way: the rules sent once, the text each time):`,
);
console.log(
  `  per check, median of ${RUNS} runs of ${CHECKS}: p50 ${ms(med(workerRuns, 'p50'))} ms, p95 ${ms(med(workerRuns, 'p95'))} ms (worst run's p95 ${ms(Math.max(...workerRuns.map((r) => r.p95)))} ms)`,
);
console.log(
  `  event loop's longest stall meanwhile: ${ms(med(workerRuns, 'stall'))} ms (worst run ${ms(Math.max(...workerRuns.map((r) => r.stall)))} ms)`,
);
console.log(`\nexpansion in the worker:`);
console.log(
  `  worker start + dictionary load + 1 term: ${ms(cold.took)} ms; event loop's longest stall meanwhile ${ms(cold.stall)} ms`,
);
console.log(
  `  ${TERMS} terms, median of ${RUNS}: ${ms(med(expandRuns, 'took'))} ms (slowest ${ms(Math.max(...expandRuns.map((r) => r.took)))} ms), about ${Math.round(med(expandRuns, 'forms')).toLocaleString('en')} forms`,
);
console.log(
  `  event loop's longest stall meanwhile: ${ms(med(expandRuns, 'stall'))} ms (worst ${ms(Math.max(...expandRuns.map((r) => r.stall)))} ms); idle reference ${ms(med(expandRuns, 'idleStall'))} ms`,
);
