import {
  marketFeedQuerySchema,
  marketFeedResponseSchema,
  marketParamsSchema,
  marketResearchPaths,
  marketsResponseSchema,
  subMarketParamsSchema,
} from '@gem/contracts/market-research';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MarketResearchService } from './market-research.service';

/** Market Research: the areas, and pages of an area's or sub-area's stored feed items. */
export const marketResearchRoutes: FastifyPluginAsyncZod<{ service: MarketResearchService }> = async (
  app,
  { service },
) => {
  app.get(marketResearchPaths.markets, { schema: { response: { 200: marketsResponseSchema } } }, () =>
    service.listMarkets(),
  );

  app.get(
    marketResearchPaths.market,
    {
      schema: {
        params: marketParamsSchema,
        querystring: marketFeedQuerySchema,
        response: { 200: marketFeedResponseSchema },
      },
    },
    (req) => service.getFeed(req.params.marketId, undefined, req.query),
  );

  app.get(
    marketResearchPaths.subMarket,
    {
      schema: {
        params: subMarketParamsSchema,
        querystring: marketFeedQuerySchema,
        response: { 200: marketFeedResponseSchema },
      },
    },
    (req) => service.getFeed(req.params.marketId, req.params.subMarketId, req.query),
  );
};
