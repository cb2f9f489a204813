import {
  briefCreatorPaths,
  chatRequestSchema,
  chatResponseSchema,
  chatSessionDetailsSchema,
  chatSessionSchema,
  chatSessionsResponseSchema,
  deletedFinishedBriefSchema,
  finishedBriefSchema,
  finishedBriefsQuerySchema,
  finishedBriefsResponseSchema,
  saveSessionBriefRequestSchema,
  saveSessionBriefResponseSchema,
  startChatSessionRequestSchema,
} from '@gem/contracts/brief-creator';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { abortWhenClientLeaves, sendNdjson } from '../../lib/http/ndjson';
import { userOf } from '../../plugins/auth';
import type { BriefCreator } from './brief-creator.service';

const sessionParams = z.object({ sessionId: z.string() });
const briefParams = z.object({ briefId: z.string() });

/**
 * Spec §7 `api/brief/*`, the chat's streaming variant, and issue 27's: one session, the brief
 * saved by hand, a session started from a finished brief, a finished brief deleted and restored.
 * Register inside the protected scope; every route answers for the signed-in user's own data only.
 */
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

  app.post(
    briefCreatorPaths.chatSessions,
    { schema: { body: startChatSessionRequestSchema, response: { 201: chatSessionSchema } } },
    async (req, reply) => {
      const session = await briefCreator.startFromBrief(userOf(req).id, req.body.fromBriefId);
      return reply.code(201).send(session);
    },
  );

  app.get(
    briefCreatorPaths.chatSession,
    { schema: { params: sessionParams, response: { 200: chatSessionDetailsSchema } } },
    (req) => briefCreator.session(userOf(req).id, req.params.sessionId),
  );

  app.put(
    briefCreatorPaths.chatSessionBrief,
    {
      schema: {
        params: sessionParams,
        body: saveSessionBriefRequestSchema,
        response: { 200: saveSessionBriefResponseSchema },
      },
    },
    (req, reply) =>
      briefCreator.saveBrief(userOf(req).id, req.params.sessionId, req.body.briefData, {
        log: req.log,
        signal: abortWhenClientLeaves(reply),
      }),
  );

  app.get(
    briefCreatorPaths.finishedBriefs,
    { schema: { querystring: finishedBriefsQuerySchema, response: { 200: finishedBriefsResponseSchema } } },
    (req) => briefCreator.finishedBriefs(userOf(req).id, req.query),
  );

  app.get(
    briefCreatorPaths.finishedBrief,
    { schema: { params: briefParams, response: { 200: finishedBriefSchema } } },
    (req) => briefCreator.finishedBrief(userOf(req).id, req.params.briefId),
  );

  app.delete(
    briefCreatorPaths.finishedBrief,
    { schema: { params: briefParams, response: { 200: deletedFinishedBriefSchema } } },
    async (req) => {
      const deleted = await briefCreator.deleteFinishedBrief(userOf(req).id, req.params.briefId);
      // The record of the deletion is the row itself (deleted_at, deleted_by); the log says it too.
      req.log.info({ briefId: deleted.id }, 'finished brief deleted');
      return deleted;
    },
  );

  app.post(
    briefCreatorPaths.finishedBriefRestore,
    { schema: { params: briefParams, response: { 200: finishedBriefSchema } } },
    (req) => briefCreator.restoreFinishedBrief(userOf(req).id, req.params.briefId),
  );
};
