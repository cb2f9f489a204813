import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The scan of the server logs the integration tests wrote (test/log-capture.ts): nothing that
 * identifies or authenticates a person, and nothing a user asked the AI for, may be in them.
 * Two kinds of check:
 *
 * - shapes, whatever the test: a JWT (access and ID tokens), `Bearer <token>`, an e-mail address;
 * - values the tests sent (recorded as they were sent): passwords, refresh and opaque tokens,
 *   the long texts of request bodies (prompts, documents, chat messages), and the AI test
 *   server's scripted answers (what a model writes is the user's too).
 */

export type SecretKind = 'password' | 'token' | 'text' | 'email' | 'answer';
export type KnownSecret = { kind: SecretKind; value: string };
export type Finding = { what: string; file: string; line: number; excerpt: string };
export type LogLine = { file: string; line: number; text: string };

const jwtShape = /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*/;
const bearerShape = /bearer\s+[\w.~+/-]{8,}/i;
/**
 * An e-mail address: a local part, @, and a domain with a dot and a top-level domain of letters
 * (package paths have "/@", never "x@"). Found by hand around each "@": a pattern would backtrack.
 */
const emailShape = {
  exec(text: string): { index: number } | null {
    const local = /[\w.%+-]/;
    const domain = /[a-z\d.-]/i;
    for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
      let begin = at;
      while (begin > 0 && local.test(text[begin - 1]!)) begin -= 1;
      let end = at + 1;
      while (end < text.length && domain.test(text[end]!)) end += 1;
      while (end > at + 1 && (text[end - 1] === '.' || text[end - 1] === '-')) end -= 1;
      const host = text.slice(at + 1, end);
      const dot = host.lastIndexOf('.');
      if (begin < at && dot > 0 && /^[a-z]{2,}$/i.test(host.slice(dot + 1))) return { index: begin };
    }
    return null;
  },
};

/** Values too short or too common to mean anything when found (a 4-letter password is a word). */
export const MIN_SECRET_LENGTH = 8;
/** Body texts this long are the user's words (a prompt, a message); shorter ones are settings. */
export const MIN_TEXT_LENGTH = 24;

const excerptOf = (text: string, at: number) =>
  text.slice(Math.max(0, at - 60), at + 60).replaceAll(/\s+/g, ' ');

/** Every leak in these lines. A line may hold several; each is reported once per kind. */
export function scanLogLines(lines: readonly LogLine[], secrets: readonly KnownSecret[]): Finding[] {
  const findings: Finding[] = [];
  // Each shape with a plain test first: most lines have no "@" or "eyJ", and skip the pattern.
  const shapes: [string, { exec(text: string): { index: number } | null }, (text: string) => boolean][] = [
    ['a JWT', jwtShape, (t) => t.includes('eyJ')],
    ['a bearer token', bearerShape, (t) => /bearer/i.test(t)],
    ['an e-mail address', emailShape, (t) => t.includes('@')],
  ];
  for (const { file, line, text } of lines) {
    for (const [what, shape, maybe] of shapes) {
      const match = maybe(text) ? shape.exec(text) : null;
      if (match) findings.push({ what, file, line, excerpt: excerptOf(text, match.index) });
    }
  }
  // Known values: one search of the whole text per value, then the line it is on.
  const known = dedupe(secrets.filter((s) => s.value.length >= MIN_SECRET_LENGTH));
  if (known.length === 0 || lines.length === 0) return findings;
  const all = lines.map((l) => l.text).join('\n');
  const starts: number[] = [];
  let offset = 0;
  for (const l of lines) {
    starts.push(offset);
    offset += l.text.length + 1;
  }
  for (const secret of known) {
    for (const needle of forms(secret.value)) {
      const at = all.indexOf(needle);
      if (at < 0) continue;
      const index = lastAtOrBefore(starts, at);
      const { file, line, text } = lines[index]!;
      findings.push({
        what: `a ${secret.kind} a test sent (${secret.value.slice(0, 40)})`,
        file,
        line,
        excerpt: excerptOf(text, at - starts[index]!),
      });
      break;
    }
  }
  return findings;
}

/** The value as it is, and as it reads inside a JSON string (quotes, backslashes, new lines escaped). */
function forms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  return json === value ? [value] : [value, json];
}

function dedupe(secrets: KnownSecret[]): KnownSecret[] {
  const seen = new Map<string, KnownSecret>();
  for (const s of secrets) if (!seen.has(s.value)) seen.set(s.value, s);
  return [...seen.values()];
}

function lastAtOrBefore(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid]! <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export type Capture = { lines: LogLine[]; secrets: KnownSecret[]; apps: number };

/** What the test processes wrote into the capture folder: `*.log` (log lines) and `*.secrets`. */
export function readCapture(dir: string): Capture {
  const lines: LogLine[] = [];
  const secrets: KnownSecret[] = [];
  let apps = 0;
  for (const name of readdirSync(dir).sort()) {
    const text = readFileSync(path.join(dir, name), 'utf8');
    const rows = text.split('\n').filter((row) => row !== '');
    if (name.endsWith('.log')) {
      rows.forEach((row, i) => {
        lines.push({ file: name, line: i + 1, text: row });
        if (row.includes('"msg":"test app built"')) apps += 1;
      });
    } else if (name.endsWith('.secrets')) {
      for (const row of rows) secrets.push(JSON.parse(row) as KnownSecret);
    }
  }
  return { lines, secrets, apps };
}

/** The lines of a whole run: below this, the capture is broken, not clean. */
const FULL_RUN_MIN_LINES = 1_000;
const FULL_RUN_MIN_APPS = 30;

/**
 * Scans a run's capture; throws with every leak found, or when the scan would prove nothing. A
 * planted leak goes through the same scan with the run's lines, so a scan that finds nothing
 * at all fails too.
 */
export function scanCapture(dir: string, project: string): void {
  const { lines, secrets, apps } = readCapture(dir);
  if (apps > 0 && lines.length <= apps) {
    throw new Error(`log scan (${project}): ${apps} test apps wrote only ${lines.length} log lines`);
  }
  if (apps >= FULL_RUN_MIN_APPS && lines.length < FULL_RUN_MIN_LINES) {
    throw new Error(`log scan (${project}): a whole run wrote only ${lines.length} log lines`);
  }
  const plantedSecret: KnownSecret = { kind: 'text', value: 'planted prompt text that must be found' };
  const planted: LogLine[] = [
    { file: 'planted', line: 1, text: '{"msg":"planted","user":"planted.leak@example.com"}' },
    { file: 'planted', line: 2, text: `{"msg":"planted","input":"${plantedSecret.value}"}` },
  ];
  const findings = scanLogLines([...lines, ...planted], [...secrets, plantedSecret]);
  const caught = findings.filter((f) => f.file === 'planted');
  if (caught.length !== 2) throw new Error(`log scan (${project}): the planted leaks were not found`);
  const leaks = findings.filter((f) => f.file !== 'planted');
  if (leaks.length > 0) {
    const list = leaks.map((f) => `  - ${f.what} in ${f.file}:${f.line}: …${f.excerpt}…`).join('\n');
    throw new Error(`log scan (${project}): the server logs hold secrets:\n${list}`);
  }
  process.stdout.write(
    `log scan (${project}): ${lines.length} log lines of ${apps} test apps, ${new Set(secrets.map((s) => s.value)).size} values the tests sent: no token, password, e-mail address or prompt text\n`,
  );
}
