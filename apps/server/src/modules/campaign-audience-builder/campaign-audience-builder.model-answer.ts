import { SEGMENT_VALUES_MAX, type CampaignFacts } from '@gem/contracts/campaign-audience-builder';
import { z } from 'zod';
import type { CrmVocabulary } from '../../integrations/crm/crm';
import {
  addUsage,
  LlmError,
  repairTurns,
  type ChatTurn,
  type TokenUsage,
} from '../../integrations/llm/text-model';
import type { AiCallScope } from '../../lib/ai/ai-platform';
import type { Logger } from '../../lib/crm-calls';
import { repairRequest, segmentsSystemPrompt, segmentsUserPrompt } from './campaign-audience-builder.prompts';

/**
 * The model's segments (issue 14): a structured answer whose lists offer the CRM's values, asked
 * for once more, shown its answer and what is wrong with it, when it cannot be used. The values
 * it chose anyway that the CRM does not have are dropped afterwards
 * (campaign-audience-builder.known-values.ts).
 */

/**
 * The answer's shape, as the model is asked for it: every list offers the CRM's values as an
 * enum, and at most SEGMENT_VALUES_MAX of them, as JSON-schema hints only. A value the CRM does not
 * have, a value in a list the CRM has none for (a dimension its mapping leaves out) or too many
 * values pass the check, and keepKnown drops them afterwards: no way of overfilling a list fails
 * the generation.
 */
function answerSchema(vocabulary: CrmVocabulary, pastCampaignIds: string[], currency: string | null) {
  const choices = (values: string[], description: string) =>
    values.length === 0
      ? z
          .array(z.string())
          .meta({ maxItems: 0 })
          .describe(`${description} Brak dostępnych wartości w CRM: zostaw pustą listę.`)
      : z
          .array(z.string().meta({ enum: values }))
          .meta({ maxItems: SEGMENT_VALUES_MAX })
          .describe(description);
  return z.object({
    explanation: z.string().describe('Dlaczego te segmenty: 3–5 zdań po polsku, z liczbami z danych.'),
    subIndustries: choices(vocabulary.subIndustries, 'Podbranże segmentu.'),
    roles: choices(vocabulary.roles, 'Role kontaktów w segmencie.'),
    titles: choices(vocabulary.titles, 'Stanowiska kontaktów w segmencie.'),
    workAreas: choices(vocabulary.workAreas, 'Obszary pracy kontaktów w segmencie.'),
    // Left out by some models when they choose no band: read as none.
    employeeBands: z.preprocess(
      (value) => value ?? [],
      choices(vocabulary.employeeBands, 'Przedziały liczby pracowników firm w segmencie (np. 50-249).'),
    ),
    revenueBands: z.preprocess(
      (value) => value ?? [],
      choices(
        vocabulary.revenueBands,
        `Przedziały rocznych przychodów firm w segmencie${currency ? ` (w ${currency})` : ''}; M = mln, B = mld.`,
      ),
    ),
    campaignIds: choices(pastCampaignIds, 'ID wcześniejszych kampanii, na których warto się wzorować.'),
    approach: z.string().describe('Jak dotrzeć do segmentów: 3–5 zdań po polsku.'),
  });
}
export type ModelAnswer = z.infer<ReturnType<typeof answerSchema>>;

/** The most the answer may take. */
export const ANSWER_TOKENS = 2_048;

/** The model's answer, asked for once more (with the answer and its fault) when it cannot be used. */
export async function askModel(
  scope: AiCallScope,
  facts: CampaignFacts,
  vocabulary: CrmVocabulary,
  topic: string,
  {
    log,
    signal,
    brand,
  }: {
    log: Logger;
    signal: AbortSignal;
    /** The brand profile's block (ai.brandFor), after the rules; null: none saved. */
    brand: string | null;
  },
): Promise<{ object: ModelAnswer; usage: TokenUsage; model: string }> {
  const system = brand ? `${segmentsSystemPrompt}\n\n${brand}` : segmentsSystemPrompt;
  const schema = answerSchema(
    vocabulary,
    facts.pastCampaigns.map((c) => c.id),
    facts.revenueCurrency,
  );
  const asked: ChatTurn[] = [{ role: 'user', content: segmentsUserPrompt(facts, topic) }];
  let messages = asked;
  let spent: TokenUsage | null = null;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const result = await scope.model.object({
        system,
        messages,
        schema,
        schemaName: 'campaign_audience_segments',
        schemaDescription: 'Segmenty odbiorców kampanii wybrane z wartości istniejących w CRM.',
        signal,
        maxOutputTokens: ANSWER_TOKENS,
      });
      return { ...result, usage: spent ? addUsage(spent, result.usage) : result.usage };
    } catch (err) {
      if (attempt > 1 || !(err instanceof LlmError) || err.failure !== 'invalid_output') throw err;
      const { rejected } = err.details;
      log.warn(
        {
          tool: 'campaign-audience-builder',
          reason: err.message,
          path: rejected?.path,
          issue: rejected?.message,
        },
        'unusable answer; asking once more',
      );
      // The model sees its answer and what is wrong with it.
      messages = repairTurns(asked, rejected, repairRequest);
      spent = { promptTokens: null, completionTokens: null };
    }
  }
}
