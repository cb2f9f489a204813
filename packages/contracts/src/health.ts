import { z } from 'zod';

export const healthPaths = {
  health: '/api/health',
  ready: '/api/ready',
} as const;

export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  uptimeSeconds: z.number().nonnegative(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

export const readyResponseSchema = z.object({
  status: z.literal('ready'),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    latencyMs: z.number().nonnegative(),
  }),
});
export type ReadyResponse = z.infer<typeof readyResponseSchema>;
