import {
  assetInputsResponseSchema,
  campaignAssetDetailsSchema,
  campaignAssetsPaths,
  campaignAssetsResponseSchema,
  channelSchema,
  generateAssetRequestSchema,
  restoreAssetRequestSchema,
  saveAssetRequestSchema,
  updateAssetRequestSchema,
} from '@gem/contracts/campaign-assets';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AiPlatform } from '../../lib/ai/ai-platform';
import { abortWhenClientLeaves, sendNdjson } from '../../lib/http/ndjson';
import { userOf } from '../../plugins/auth';
import type { CampaignAssets } from './campaign-assets.service';

const campaignParams = z.object({ campaignId: z.string() });
const assetParams = z.object({ campaignId: z.string(), channel: channelSchema });

/**
 * A campaign's assets under `/api/campaigns/:campaignId/assets` (issue 29). Register inside the
 * protected scope; the service decides who may see or change them (campaigns.access.ts).
 */
export const campaignAssetsRoutes: FastifyPluginAsyncZod<{ assets: CampaignAssets; ai: AiPlatform }> = async (
  app,
  { assets, ai },
) => {
  app.get(
    campaignAssetsPaths.assets,
    { schema: { params: campaignParams, response: { 200: campaignAssetsResponseSchema } } },
    (req) => assets.list(userOf(req).id, req.params.campaignId),
  );

  app.get(
    campaignAssetsPaths.asset,
    { schema: { params: assetParams, response: { 200: campaignAssetDetailsSchema } } },
    (req) => assets.get(userOf(req).id, req.params.campaignId, req.params.channel),
  );

  app.put(
    campaignAssetsPaths.asset,
    {
      schema: {
        params: assetParams,
        body: saveAssetRequestSchema,
        response: { 200: campaignAssetDetailsSchema },
      },
    },
    (req) => assets.save(userOf(req).id, req.params.campaignId, req.params.channel, req.body),
  );

  app.patch(
    campaignAssetsPaths.asset,
    {
      schema: {
        params: assetParams,
        body: updateAssetRequestSchema,
        response: { 200: campaignAssetDetailsSchema },
      },
    },
    (req) => assets.update(userOf(req).id, req.params.campaignId, req.params.channel, req.body),
  );

  app.get(
    campaignAssetsPaths.inputs,
    { schema: { params: assetParams, response: { 200: assetInputsResponseSchema } } },
    (req) => assets.inputs(userOf(req).id, req.params.campaignId, req.params.channel),
  );

  app.post(
    campaignAssetsPaths.restore,
    {
      schema: {
        params: assetParams,
        body: restoreAssetRequestSchema,
        response: { 200: campaignAssetDetailsSchema },
      },
    },
    (req) => assets.restore(userOf(req).id, req.params.campaignId, req.params.channel, req.body.version),
  );

  app.post(
    campaignAssetsPaths.generateAll,
    {
      schema: { params: campaignParams },
      compress: false,
      preValidation: async () => ai.assertConfigured(),
    },
    async (req, reply) => {
      const events = await assets.generateAll(userOf(req).id, req.params.campaignId, {
        signal: abortWhenClientLeaves(reply),
        log: req.log,
      });
      return sendNdjson(reply, events);
    },
  );

  app.post(
    campaignAssetsPaths.generate,
    {
      schema: { params: assetParams, body: generateAssetRequestSchema },
      compress: false,
      // Not configured: 503 whatever the body, as the writing tools answer.
      preValidation: async () => ai.assertConfigured(),
    },
    async (req, reply) => {
      const events = await assets.generate(
        userOf(req).id,
        req.params.campaignId,
        req.params.channel,
        req.body,
        {
          signal: abortWhenClientLeaves(reply),
          log: req.log,
        },
      );
      return sendNdjson(reply, events);
    },
  );
};
