import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Value parsers the concerns' schemas share. */

export const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], {
    error: 'must be one of true, false, 1, 0, yes, no',
  })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const positiveInt = (max: number) => z.coerce.number().int().positive().max(max);

export const commaList = (s: string) =>
  s
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

export const listOf = (pattern: RegExp, what: string, transform: (v: string) => string = (v) => v) =>
  z.string().transform((raw, ctx) => {
    const items = commaList(raw).map(transform);
    const bad = items.filter((v) => !pattern.test(v));
    if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `not ${what}: ${bad.join(', ')}` });
    return items;
  });

/**
 * A settings file's JSON, or undefined with the problem pushed as "<where>: the file does not
 * exist" or "<where>: is not valid JSON (…)". `where` names the variable and the file.
 */
export function readJsonFile(file: string, where: string, problems: string[]): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    problems.push(
      code === 'ENOENT'
        ? `${where}: the file does not exist`
        : `${where}: is not valid JSON (${(err as Error).message})`,
    );
    return undefined;
  }
}
