/**
 * The work code does on text, counted rather than timed, so that a test can say "four times the
 * text is about four times the work" the same way on any machine, however loaded. Counted on
 * this thread while the work runs (a worker thread's work is its own, and not counted):
 * - the characters the string searches pass over (indexOf, lastIndexOf, includes), what
 *   startsWith and endsWith compare, one for each charCodeAt;
 * - the characters offered to each run of a regular expression (each exec, and those that test,
 *   match, replace and split make): from where it starts to the end of its text, what a pattern
 *   that runs in linear time may read. That each pattern does run in linear time is
 *   eslint-plugin-regexp's to check (no super-linear backtracking or move).
 * The times themselves are in bench/.
 */

type Counter = { characters: number };

/** The characters from `from` to the end of `text`, or to just past what was found there. */
const scanned = (text: string, search: string, from: number, found: number) =>
  (found === -1 ? text.length : found + search.length) - Math.min(Math.max(from, 0), text.length);

/** Wraps the string searches and RegExp's exec to count into `counter`; the returned function undoes it. */
function count(counter: Counter): () => void {
  const S = String.prototype;
  const { indexOf, lastIndexOf, includes, startsWith, endsWith, charCodeAt } = S;
  const { exec } = RegExp.prototype;
  S.indexOf = function (this: string, search: string, from = 0) {
    const found = indexOf.call(this, search, from);
    counter.characters += scanned(String(this), String(search), from, found);
    return found;
  };
  S.lastIndexOf = function (this: string, search: string, from = Infinity) {
    const found = lastIndexOf.call(this, search, from);
    counter.characters += Math.min(from, this.length) - Math.max(found, 0) + 1;
    return found;
  };
  S.includes = function (this: string, search: string, from = 0) {
    const found = indexOf.call(this, search, from);
    counter.characters += scanned(String(this), String(search), from, found);
    return includes.call(this, search, from);
  };
  S.startsWith = function (this: string, search: string, at?: number) {
    counter.characters += String(search).length;
    return startsWith.call(this, search, at);
  };
  S.endsWith = function (this: string, search: string, end?: number) {
    counter.characters += String(search).length;
    return endsWith.call(this, search, end);
  };
  S.charCodeAt = function (this: string, at: number) {
    counter.characters += 1;
    return charCodeAt.call(this, at);
  };
  RegExp.prototype.exec = function (this: RegExp, text: string) {
    const input = String(text);
    const start = this.global || this.sticky ? this.lastIndex : 0;
    counter.characters += Math.max(input.length - start, 1);
    return exec.call(this, input);
  };
  return () => {
    Object.assign(S, { indexOf, lastIndexOf, includes, startsWith, endsWith, charCodeAt });
    RegExp.prototype.exec = exec;
  };
}

/** The characters `run` reads (see above); `run` is synchronous. */
export function charactersRead(run: () => unknown): number {
  const counter = { characters: 0 };
  const undo = count(counter);
  try {
    run();
  } finally {
    undo();
  }
  return counter.characters;
}

/**
 * The characters this thread reads until `run`'s promise settles, whatever reads them (the work
 * itself, and anything else this thread does meanwhile), with what the promise gave.
 */
export async function charactersReadWhile<T>(
  run: () => Promise<T>,
): Promise<{ result: T; characters: number }> {
  const counter = { characters: 0 };
  const undo = count(counter);
  try {
    const result = await run();
    return { result, characters: counter.characters };
  } finally {
    undo();
  }
}
