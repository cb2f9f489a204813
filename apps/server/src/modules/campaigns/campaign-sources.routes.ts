import {
  addCampaignSourceRequestSchema,
  campaignSourceSchema,
  campaignSourcesPaths,
  campaignSourcesResponseSchema,
} from '@gem/contracts/campaign-sources';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { userOf } from '../../plugins/auth';
import type { CampaignSources } from './campaign-sources.service';

const campaignParams = z.object({ campaignId: z.string() });
const sourceParams = z.object({ campaignId: z.string(), sourceId: z.string() });

/** A campaign's sources (issue 29). Register inside the protected scope; the service decides who may. */
export const campaignSourcesRoutes: FastifyPluginAsyncZod<{ sources: CampaignSources }> = async (
  app,
  { sources },
) => {
  app.get(
    campaignSourcesPaths.sources,
    { schema: { params: campaignParams, response: { 200: campaignSourcesResponseSchema } } },
    (req) => sources.list(userOf(req).id, req.params.campaignId),
  );

  app.post(
    campaignSourcesPaths.sources,
    {
      schema: {
        params: campaignParams,
        body: addCampaignSourceRequestSchema,
        response: { 200: campaignSourceSchema },
      },
    },
    (req) => sources.add(userOf(req).id, req.params.campaignId, req.body),
  );

  app.delete(
    campaignSourcesPaths.source,
    { schema: { params: sourceParams, response: { 200: campaignSourcesResponseSchema } } },
    (req) => sources.remove(userOf(req).id, req.params.campaignId, req.params.sourceId),
  );
};
