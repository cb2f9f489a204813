import {
  competitorSearchPaths,
  competitorSearchRequestSchema,
  competitorSearchResponseSchema,
  competitorsResponseSchema,
} from '@gem/contracts/competitor-search';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CompetitorSearchService } from './competitor-search.service';

/** Competitor search: the spec's search call, and the competitors with how fresh the index is. */
export const competitorSearchRoutes: FastifyPluginAsyncZod<{ service: CompetitorSearchService }> = async (
  app,
  { service },
) => {
  // The contract's schema, plus what only the server knows: words to search for, a known site.
  const body = competitorSearchRequestSchema.superRefine((request, ctx) => {
    for (const problem of service.problems(request)) {
      ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
    }
  });

  app.post(
    competitorSearchPaths.search,
    { schema: { body, response: { 200: competitorSearchResponseSchema } } },
    (req) => service.search(req.body),
  );

  app.get(
    competitorSearchPaths.competitors,
    { schema: { response: { 200: competitorsResponseSchema } } },
    () => service.listCompetitors(),
  );
};
