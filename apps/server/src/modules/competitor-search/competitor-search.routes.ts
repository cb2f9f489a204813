import {
  competitorSearchPaths,
  competitorSearchRequestSchema,
  competitorSearchResponseSchema,
  competitorsResponseSchema,
  competitorWeeklyCountsRequestSchema,
  competitorWeeklyCountsResponseSchema,
} from '@gem/contracts/competitor-search';
import type { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CompetitorSearchService } from './competitor-search.service';

/**
 * Competitor search: the spec's search call, a search's weekly counts in full, and the
 * competitors with how fresh the index is.
 */
export const competitorSearchRoutes: FastifyPluginAsyncZod<{ service: CompetitorSearchService }> = async (
  app,
  { service },
) => {
  // The contract's schemas, plus what only the server knows: words to search for, a known site.
  const checked = <T extends z.ZodType<{ query: string; siteSearch?: string | null | undefined }>>(
    schema: T,
  ) =>
    schema.superRefine((request, ctx) => {
      for (const problem of service.problems(request)) {
        ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
      }
    });
  const body = checked(competitorSearchRequestSchema);

  app.post(
    competitorSearchPaths.search,
    { schema: { body, response: { 200: competitorSearchResponseSchema } } },
    (req) => service.search(req.body),
  );

  app.post(
    competitorSearchPaths.weeklyCounts,
    {
      schema: {
        body: checked(competitorWeeklyCountsRequestSchema),
        response: { 200: competitorWeeklyCountsResponseSchema },
      },
    },
    (req) => service.weeklyCounts(req.body),
  );

  app.get(
    competitorSearchPaths.competitors,
    { schema: { response: { 200: competitorsResponseSchema } } },
    () => service.listCompetitors(),
  );
};
