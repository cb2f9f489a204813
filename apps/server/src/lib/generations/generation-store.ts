import {
  generationOutputSchema,
  type GenerationHistoryResponse,
  type GenerationOutput,
  type GeneratorName,
} from '@gem/contracts/generators';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { generations, users } from '../../db/schema/index';
import type { VerifiedIdentity } from '../../integrations/oidc/token-verifier';
import type { TokenUsage } from '../../integrations/llm/text-model';

/** Where generations are recorded, and read back as a user's history of one tool. */

export const HISTORY_SIZE = 20;

export type GenerationRecordInput = {
  id: string;
  userId: string;
  generator: string;
  input: Record<string, unknown>;
  output: GenerationOutput | null;
  model: string | null;
  usage: TokenUsage | null;
  startedAt: Date;
  latencyMs: number;
  outcome: 'succeeded' | 'failed' | 'cancelled';
  errorCode: string | null;
};

export function createGenerationStore(db: Db) {
  return {
    /** The user row of a signed-in identity (the access gate has normally made it already). */
    async userIdOf(identity: VerifiedIdentity): Promise<string> {
      const find = () =>
        db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.issuer, identity.issuer), eq(users.subject, identity.subject)))
          .limit(1);
      const [found] = await find();
      if (found) return found.id;
      await db
        .insert(users)
        .values({
          issuer: identity.issuer,
          subject: identity.subject,
          email: identity.email ?? null,
          displayName: identity.name ?? null,
        })
        .onConflictDoNothing();
      const [made] = await find();
      if (!made) throw new Error('user row missing after insert');
      return made.id;
    },

    async record(row: GenerationRecordInput): Promise<void> {
      await db.insert(generations).values({
        id: row.id,
        userId: row.userId,
        generator: row.generator,
        input: row.input,
        output: row.output,
        model: row.model,
        promptTokens: row.usage?.promptTokens ?? null,
        completionTokens: row.usage?.completionTokens ?? null,
        latencyMs: Math.round(row.latencyMs),
        outcome: row.outcome,
        errorCode: row.errorCode,
        createdAt: row.startedAt,
      });
    },

    /** This user's last generations of this tool, newest first. Nobody else's, ever. */
    async history(userId: string, generator: GeneratorName): Promise<GenerationHistoryResponse> {
      const rows = await db
        .select({
          id: generations.id,
          createdAt: generations.createdAt,
          input: generations.input,
          output: generations.output,
          outcome: generations.outcome,
        })
        .from(generations)
        .where(and(eq(generations.userId, userId), eq(generations.generator, generator)))
        .orderBy(desc(generations.createdAt), desc(generations.id))
        .limit(HISTORY_SIZE);
      return {
        items: rows.map((row) => {
          const output = generationOutputSchema.safeParse(row.output);
          return {
            id: row.id,
            generator,
            createdAt: row.createdAt.toISOString(),
            input: (row.input ?? {}) as Record<string, unknown>,
            output: output.success ? output.data : null,
            outcome: row.outcome,
          };
        }),
      };
    },
  };
}

export type GenerationStore = ReturnType<typeof createGenerationStore>;
