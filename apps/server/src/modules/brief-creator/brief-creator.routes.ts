import {
  briefCreatorPaths,
  chatRequestSchema,
  chatResponseSchema,
  chatSessionsResponseSchema,
  finishedBriefSchema,
  finishedBriefsResponseSchema,
} from '@gem/contracts/brief-creator';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { abortWhenClientLeaves, sendNdjson } from '../../lib/http/ndjson';
import { userOf } from '../../plugins/auth';
import type { BriefCreator } from './brief-creator.service';

/** Spec §7 `api/brief/*`, and the chat's streaming variant. Register inside the protected scope. */
export const briefCreatorRoutes: FastifyPluginAsyncZod<{ briefCreator: BriefCreator }> = async (
  app,
  { briefCreator },
) => {
  app.post(
    briefCreatorPaths.chat,
    { schema: { body: chatRequestSchema, response: { 200: chatResponseSchema } } },
    (req, reply) =>
      briefCreator.chat(req.body, {
        userId: userOf(req).id,
        log: req.log,
        signal: abortWhenClientLeaves(reply),
      }),
  );

  app.post(
    briefCreatorPaths.chatStream,
    { schema: { body: chatRequestSchema }, compress: false },
    async (req, reply) => {
      const events = await briefCreator.stream(req.body, {
        userId: userOf(req).id,
        log: req.log,
        signal: abortWhenClientLeaves(reply),
      });
      return sendNdjson(reply, events);
    },
  );

  app.get(
    briefCreatorPaths.chatSessions,
    { schema: { response: { 200: chatSessionsResponseSchema } } },
    (req) => briefCreator.sessions(userOf(req).id),
  );

  app.get(
    briefCreatorPaths.finishedBriefs,
    { schema: { response: { 200: finishedBriefsResponseSchema } } },
    (req) => briefCreator.finishedBriefs(userOf(req).id),
  );

  app.get(
    briefCreatorPaths.finishedBrief,
    { schema: { params: z.object({ briefId: z.string() }), response: { 200: finishedBriefSchema } } },
    (req) => briefCreator.finishedBrief(userOf(req).id, req.params.briefId),
  );
};
