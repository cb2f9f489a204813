import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, envSchema, parseConfig } from './index';

describe('the configuration documents', () => {
  const repo = new URL('../../../../', import.meta.url);
  const readme = readFileSync(new URL('README.md', repo), 'utf8');
  const example = readFileSync(new URL('.env.example', repo), 'utf8');

  it.each(Object.keys(envSchema.shape))('documents %s in README.md and .env.example', (name) => {
    expect(readme).toContain(`| \`${name}\``);
    expect(example).toMatch(new RegExp(`^${name}=`, 'm'));
  });

  it('runs on embedded defaults with .env.example as shipped', () => {
    const values = Object.fromEntries(
      example
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
    );
    expect(parseConfig(values).auth.mode).toBe('embedded');
  });
});

describe('parseConfig', () => {
  it('treats an empty value as unset', () => {
    expect(parseConfig({ PORT: '', DATABASE_URL: ' ' }).port).toBe(3000);
    expect(parseConfig({ DATABASE_URL: '' }).database.kind).toBe('pglite');
  });

  it('lists every bad field at once', () => {
    let error: unknown;
    try {
      parseConfig({
        PORT: 'eighty',
        NODE_ENV: 'staging',
        DATABASE_URL: 'mysql://x',
        GEM_TRUST_PROXY: 'maybe',
        GEM_BODY_LIMIT_BYTES: '-5',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const fields = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(fields.sort()).toEqual([
      'DATABASE_URL',
      'GEM_BODY_LIMIT_BYTES',
      'GEM_TRUST_PROXY',
      'NODE_ENV',
      'PORT',
    ]);
    expect((error as ConfigError).message).toContain('GEM_TRUST_PROXY: not proxy addresses: maybe');
  });

  it("adds the caller's checks to the one list, each given the parsed config", () => {
    const seen: number[] = [];
    const check = (config: { port: number }) => {
      seen.push(config.port);
      return ['GEM_EXAMPLE: refused by a check'];
    };
    let error: unknown;
    try {
      parseConfig({ PORT: '4000', GEM_AI_MODEL: 'gpt-4o' }, { checks: [check] });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'GEM_AI_MODEL: is set but GEM_AI_PROVIDER is not; set the provider too, or unset GEM_AI_MODEL',
      'GEM_EXAMPLE: refused by a check',
    ]);
    expect(seen).toEqual([4000]);
    expect(parseConfig({}, { checks: [() => []] }).port).toBe(3000);
  });
});
