import { describe, expect, it } from 'vitest';
import { parseConfig } from './index';

describe('server settings', () => {
  it('runs on embedded defaults with nothing set', () => {
    const config = parseConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'pglite', dataDir: './data' });
    expect(config.bodyLimitBytes).toBe(1024 * 1024);
    expect(config.log.pretty).toBe(false);
    expect(config.migrationsDir).toMatch(/apps\/server\/drizzle$/);
    expect(config.webDistDir).toMatch(/apps\/web\/dist$/);
  });

  it('uses the PostgreSQL server when DATABASE_URL is set', () => {
    const config = parseConfig({
      DATABASE_URL: 'postgres://gem@db.internal:5432/gem',
      GEM_DB_POOL_MAX: '20',
    });
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://gem@db.internal:5432/gem',
      poolMax: 20,
    });
  });

  it('reads booleans in the usual spellings', () => {
    expect(parseConfig({ GEM_LOG_PRETTY: 'yes' }).log.pretty).toBe(true);
    expect(parseConfig({ GEM_LOG_PRETTY: '0' }).log.pretty).toBe(false);
  });

  it('trusts a number of proxies or their addresses, never every hop', () => {
    expect(parseConfig({}).trustProxy).toBe(false);
    expect(parseConfig({ GEM_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(parseConfig({ GEM_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(parseConfig({ GEM_TRUST_PROXY: '10.0.0.0/8, 192.168.1.4' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.4',
    ]);
    for (const everyHop of ['true', 'yes']) {
      expect(() => parseConfig({ GEM_TRUST_PROXY: everyHop })).toThrow(
        /GEM_TRUST_PROXY: must be false, the number of proxies in front of GEM/,
      );
    }
  });

  it("refuses a brand checker on GEM's own origin (the frame could read the session)", () => {
    expect(() => parseConfig({ GEM_BRAND_CHECKER_URL: 'http://localhost:3000/brand' })).toThrow(
      /GEM_BRAND_CHECKER_URL: must be on another origin than GEM itself/,
    );
    expect(parseConfig({ GEM_BRAND_CHECKER_URL: 'https://brand.example.com/' }).brandCheckerUrl).toBe(
      'https://brand.example.com/',
    );
  });
});
