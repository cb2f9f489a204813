import {
  campaignAudiencePaths,
  campaignAudienceResponseSchema,
  memberPreviewSchema,
  memberRunSchema,
  saveSegmentRequestSchema,
} from '@gem/contracts/campaign-audience';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { userOf } from '../../plugins/auth';
import type { CampaignAudience } from './campaign-audience.service';

const campaignParams = z.object({ campaignId: z.string() });
const segmentParams = z.object({ campaignId: z.string(), segmentId: z.string() });

/** A campaign's audience (issue 29). Register inside the protected scope; the service decides who may. */
export const campaignAudienceRoutes: FastifyPluginAsyncZod<{ audience: CampaignAudience }> = async (
  app,
  { audience },
) => {
  app.get(
    campaignAudiencePaths.audience,
    { schema: { params: campaignParams, response: { 200: campaignAudienceResponseSchema } } },
    (req) => audience.get(userOf(req).id, req.params.campaignId),
  );
  app.post(
    campaignAudiencePaths.audience,
    {
      schema: {
        params: campaignParams,
        body: saveSegmentRequestSchema,
        response: { 200: campaignAudienceResponseSchema },
      },
    },
    (req) => audience.save(userOf(req).id, req.params.campaignId, req.body),
  );
  app.delete(
    campaignAudiencePaths.segment,
    { schema: { params: segmentParams, response: { 200: campaignAudienceResponseSchema } } },
    (req) => audience.remove(userOf(req).id, req.params.campaignId, req.params.segmentId),
  );
  app.post(
    campaignAudiencePaths.preview,
    { schema: { params: segmentParams, response: { 200: memberPreviewSchema } } },
    (req) => audience.preview(userOf(req).id, req.params.campaignId, req.params.segmentId, req.log),
  );
  app.post(
    campaignAudiencePaths.members,
    { schema: { params: segmentParams, response: { 200: memberRunSchema } } },
    (req) => audience.addMembers(userOf(req).id, req.params.campaignId, req.params.segmentId, req.log),
  );
};
