import {
  addCampaignEditorRequestSchema,
  campaignActivityResponseSchema,
  campaignBriefVersionsResponseSchema,
  campaignSchema,
  campaignsPaths,
  campaignsQuerySchema,
  campaignsResponseSchema,
  createCampaignRequestSchema,
  saveCampaignBriefRequestSchema,
  updateCampaignRequestSchema,
} from '@gem/contracts/campaigns';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { userOf } from '../../plugins/auth';
import type { Campaigns } from './campaigns.service';

const campaignParams = z.object({ campaignId: z.string() });
const editorParams = z.object({ campaignId: z.string(), userId: z.string() });

/**
 * `/api/campaigns` (issue 29). Register inside the protected scope; each route asks the service,
 * which decides on the server who may see or change the campaign (campaigns.access.ts).
 */
export const campaignsRoutes: FastifyPluginAsyncZod<{ campaigns: Campaigns }> = async (
  app,
  { campaigns },
) => {
  app.get(
    campaignsPaths.campaigns,
    { schema: { querystring: campaignsQuerySchema, response: { 200: campaignsResponseSchema } } },
    (req) => campaigns.list(userOf(req).id, req.query),
  );

  app.post(
    campaignsPaths.campaigns,
    { schema: { body: createCampaignRequestSchema, response: { 200: campaignSchema, 201: campaignSchema } } },
    async (req, reply) => {
      const { campaign, created } = await campaigns.create(userOf(req).id, req.body.finishedBriefId);
      return reply.code(created ? 201 : 200).send(campaign);
    },
  );

  app.get(
    campaignsPaths.campaign,
    { schema: { params: campaignParams, response: { 200: campaignSchema } } },
    (req) => campaigns.get(userOf(req).id, req.params.campaignId),
  );

  app.patch(
    campaignsPaths.campaign,
    {
      schema: {
        params: campaignParams,
        body: updateCampaignRequestSchema,
        response: { 200: campaignSchema },
      },
    },
    (req) => campaigns.update(userOf(req).id, req.params.campaignId, req.body),
  );

  app.get(
    campaignsPaths.campaignBrief,
    { schema: { params: campaignParams, response: { 200: campaignBriefVersionsResponseSchema } } },
    (req) => campaigns.briefVersions(userOf(req).id, req.params.campaignId),
  );

  app.put(
    campaignsPaths.campaignBrief,
    {
      schema: {
        params: campaignParams,
        body: saveCampaignBriefRequestSchema,
        response: { 200: campaignSchema },
      },
    },
    (req) => campaigns.saveBrief(userOf(req).id, req.params.campaignId, req.body),
  );

  app.get(
    campaignsPaths.campaignActivity,
    { schema: { params: campaignParams, response: { 200: campaignActivityResponseSchema } } },
    (req) => campaigns.activity(userOf(req).id, req.params.campaignId),
  );

  app.post(
    campaignsPaths.campaignEditors,
    {
      schema: {
        params: campaignParams,
        body: addCampaignEditorRequestSchema,
        response: { 200: campaignSchema },
      },
    },
    (req) => campaigns.addEditor(userOf(req).id, req.params.campaignId, req.body.email),
  );

  app.delete(
    campaignsPaths.campaignEditor,
    { schema: { params: editorParams, response: { 200: campaignSchema } } },
    (req) => campaigns.removeEditor(userOf(req).id, req.params.campaignId, req.params.userId),
  );

  app.post(
    campaignsPaths.campaignDuplicate,
    { schema: { params: campaignParams, response: { 201: campaignSchema } } },
    async (req, reply) =>
      reply.code(201).send(await campaigns.duplicate(userOf(req).id, req.params.campaignId)),
  );
};
