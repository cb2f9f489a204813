import { campaignAssetPath, type GenerateAssetRequest } from '@gem/contracts/campaign-assets';
import type { CampaignChannelId } from '@gem/contracts/campaign-channels';
import type { GenerationOutput } from '@gem/contracts/writing-tools';

import { streamGenerationFrom, type StreamGenerationOptions } from '@/lib/ai/generation-stream';

/**
 * Generates the channel's asset (from the brief, from the inputs the marketer changed, or the
 * current text again with an instruction). The answer is the writing tools' own NDJSON stream,
 * read by the same reader; the server saves the text as a version before its final event.
 */
export function generateAsset(
  campaignId: string,
  channel: CampaignChannelId,
  request: GenerateAssetRequest,
  options: StreamGenerationOptions = {},
): Promise<{ generationId: string; output: GenerationOutput }> {
  return streamGenerationFrom(`${campaignAssetPath(campaignId, channel)}/generate`, request, options);
}
