import type { GenerateSegmentsResponse } from '@gem/contracts/campaign-audience-builder';
import type { Crm } from '../../integrations/crm/crm';
import { LlmError } from '../../integrations/llm/text-model';
import type { AiPlatform } from '../../lib/ai/ai-platform';
import { toAppError } from '../../lib/ai/ai-errors';
import { AppError } from '../../lib/app-error';
import { checkAnalysis, contradictionsIn } from './campaign-audience-builder.claims';
import { noSuchCampaign, type FromCrm, type Logger } from '../../lib/crm-calls';
import { keptSegment } from './campaign-audience-builder.known-values';
import { ANSWER_TOKENS, askModel } from './campaign-audience-builder.model-answer';
import { joined, type SegmentReports } from './campaign-audience-builder.reports';

/**
 * Spec §7 `POST /api/sf/generate-boost-segments` (issue 14): takes one AI slot, reads the
 * campaign's facts and the CRM's values, asks the model for the segment to target next
 * (campaign-audience-builder.model-answer.ts), keeps the values the CRM has
 * (campaign-audience-builder.known-values.ts), adds the segment's reports with their reach and
 * checks the model's figures against the facts (campaign-audience-builder.claims.ts). The
 * generation is recorded, succeeded or failed with why.
 */

export type GenerationContext = { userId: string; log: Logger; signal: AbortSignal };

/** How much of the CRM the model is shown. */
const FACTS = { topValues: 12, pastCampaigns: 8, vocabularySize: 150 } as const;

export function createSegmentGenerator({
  crm,
  ai,
  fromCrm,
  reportsOf,
}: {
  crm: Crm;
  ai: AiPlatform;
  fromCrm: FromCrm;
  reportsOf: SegmentReports;
}) {
  return async function generate(
    request: { campaignId: string; topic: string },
    context: GenerationContext,
  ): Promise<GenerateSegmentsResponse> {
    const { log } = context;
    // The brand profile in force (its voice, audience notes and facts) goes to the model too.
    const { brand, block } = await ai.brandFor(undefined, ANSWER_TOKENS, log);
    const scope = await ai.begin({
      userId: context.userId,
      tool: 'campaign-audience-builder',
      input: { campaignId: request.campaignId, topic: request.topic, crm: crm.provider },
      log,
      brand,
    });
    try {
      const read = await fromCrm(log, 'read a campaign', () => crm.campaignFacts(request.campaignId, FACTS));
      if (!read) throw new AppError(404, 'not_found', noSuchCampaign(request.campaignId));
      const { facts, vocabulary } = read;
      const answer = await askModel(scope, facts, vocabulary, request.topic, {
        ...context,
        brand: block?.text ?? null,
      });
      const { segment, pastCampaigns, dropped } = keptSegment(answer.object, facts, vocabulary, log);
      const reports = await reportsOf(
        facts,
        segment,
        pastCampaigns.map((c) => c.id),
        log,
      );

      const response: GenerateSegmentsResponse = {
        explanation: answer.object.explanation.trim(),
        ...segment,
        campaigns: pastCampaigns.map((c) => ({
          name: c.name,
          objective: c.objective ?? '',
          lineOfService: c.lineOfService ?? '',
        })),
        subIndustriesString: joined(segment.subIndustries),
        rolesString: joined(segment.roles),
        titlesString: joined(segment.titles),
        workAreasString: joined(segment.workAreas),
        approach: answer.object.approach.trim(),
        reports,
        analysis: checkAnalysis(answer.object, facts),
        facts,
        crm: crm.provider,
        sample: crm.sample,
        // The built-in stand-in's answer is an example: the page and the record say so.
        ...(scope.model.provider === 'demo' ? { demo: true as const } : {}),
      };
      // The record keeps the figures that contradict the CRM, not the whole checked text.
      const { facts: _facts, analysis, ...recorded } = response;
      await scope.end({
        outcome: 'succeeded',
        output: { ...recorded, dropped, contradicted: contradictionsIn(analysis) },
        usage: answer.usage,
        model: answer.model,
      });
      return response;
    } catch (err) {
      if (err instanceof LlmError) {
        await scope.fail(err);
        throw toAppError(err);
      }
      // Recorded with why: the CRM failed, no such campaign, or an error of GEM's own.
      const errorCode =
        err instanceof AppError
          ? err.code === 'not_found'
            ? 'campaign_not_found'
            : err.code
          : 'internal_error';
      await scope.end({ outcome: 'failed', errorCode });
      throw err;
    }
  };
}
