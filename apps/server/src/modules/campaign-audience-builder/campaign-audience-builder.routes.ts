import {
  campaignAudienceBuilderPaths,
  campaignsQuerySchema,
  campaignsResponseSchema,
  generateSegmentsRequestSchema,
  generateSegmentsResponseSchema,
  reportQuerySchema,
  reportResponseSchema,
} from '@gem/contracts/campaign-audience-builder';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { abortWhenClientLeaves } from '../../lib/http/ndjson';
import { userOf } from '../../plugins/auth';
import type { CampaignAudienceBuilder } from './campaign-audience-builder.service';

/** Spec §7 `POST /api/sf/generate-boost-segments`, the campaign picker and the embedded CRM's reports. Protected scope. */
export const campaignAudienceBuilderRoutes: FastifyPluginAsyncZod<{
  builder: CampaignAudienceBuilder;
}> = async (app, { builder }) => {
  app.post(
    campaignAudienceBuilderPaths.generate,
    { schema: { body: generateSegmentsRequestSchema, response: { 200: generateSegmentsResponseSchema } } },
    (req, reply) =>
      builder.generate(req.body, {
        userId: userOf(req).id,
        log: req.log,
        signal: abortWhenClientLeaves(reply),
      }),
  );

  app.get(
    campaignAudienceBuilderPaths.campaigns,
    { schema: { querystring: campaignsQuerySchema, response: { 200: campaignsResponseSchema } } },
    (req) => builder.campaigns(req.query.q, req.log),
  );

  app.get(
    campaignAudienceBuilderPaths.report,
    { schema: { querystring: reportQuerySchema, response: { 200: reportResponseSchema } } },
    (req) => builder.report(req.query, { userId: userOf(req).id, log: req.log }),
  );

  app.get(
    campaignAudienceBuilderPaths.reportCsv,
    { schema: { querystring: reportQuerySchema } },
    async (req, reply) => {
      const { fileName, body } = await builder.reportCsv(req.query, { userId: userOf(req).id, log: req.log });
      // Streamed as the client reads it; the user's lease ends when the stream closes.
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(body);
    },
  );
};
