import { campaignPackPaths, campaignPackSchema } from '@gem/contracts/campaign-pack';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { userOf } from '../../plugins/auth';
import type { CampaignPackService } from './campaign-pack.service';

/**
 * A campaign's pack at `/api/campaigns/:campaignId/pack` (issue 29). Register inside the
 * protected scope; the service answers only those who may read the campaign (404 otherwise).
 */
export const campaignPackRoutes: FastifyPluginAsyncZod<{ pack: CampaignPackService }> = async (
  app,
  { pack },
) => {
  app.get(
    campaignPackPaths.pack,
    {
      schema: {
        params: z.object({ campaignId: z.string() }),
        response: { 200: campaignPackSchema },
      },
    },
    (req) => pack.pack(userOf(req).id, req.params.campaignId),
  );
};
