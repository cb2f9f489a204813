import type { HealthResponse, ReadyResponse } from '@gem/contracts/health';
import type { Database } from '../../db/client';
import { AppError } from '../../lib/app-error';

const PING_TIMEOUT_MS = 2_000;

export function createHealthService({ database, version }: { database: Database; version: string }) {
  const startedAt = Date.now();
  return {
    health(): HealthResponse {
      return { status: 'ok', version, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) };
    },

    async ready(): Promise<ReadyResponse> {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('database ping timed out')), PING_TIMEOUT_MS);
      });
      try {
        await Promise.race([database.ping(), timeout]);
      } catch (cause) {
        throw new AppError(503, 'service_unavailable', 'The database is not answering.', 5, { cause });
      } finally {
        clearTimeout(timer);
      }
      return {
        status: 'ready',
        database: { kind: database.kind, latencyMs: Math.round((performance.now() - started) * 10) / 10 },
      };
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
