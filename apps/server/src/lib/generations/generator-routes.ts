import { PassThrough } from 'node:stream';
import {
  generationHistoryResponseSchema,
  generatorInputSchemas,
  generatorPaths,
  type GenerationEvent,
  type GeneratorInput,
  type GeneratorName,
} from '@gem/contracts/generators';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { identityOf } from '../../plugins/auth';
import type { OutputLimit, Prompt } from './generation-pipeline';
import type { GenerationService } from './generation-service';

/** What a tool module defines: its prompt (Polish) and the limit it enforces, if any. */
export type GeneratorDefinition<N extends GeneratorName> = {
  name: N;
  prompt(input: GeneratorInput<N>): Prompt;
  limit?: OutputLimit;
  /** A guard against runaway answers, far above what the prompt asks for. */
  maxOutputTokens?: number;
};

export type GeneratorRoutesOptions = { generations: GenerationService };

/**
 * An AbortSignal that fires when the browser goes away before the answer is complete, so the
 * model call is aborted with it.
 */
export function abortWhenClientLeaves(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * Answers with an NDJSON body: one GenerationEvent per line, each written as soon as it is
 * there (compression is off for these routes, so nothing holds a line back).
 */
export function sendNdjson(reply: FastifyReply, events: AsyncIterable<GenerationEvent>) {
  const body = new PassThrough();
  void (async () => {
    // Drained to the end even if the browser left: the generation is recorded at its end.
    for await (const event of events) {
      if (!body.destroyed && !body.writableEnded) body.write(`${JSON.stringify(event)}\n`);
    }
    body.end();
  })().catch((err: unknown) => {
    reply.log.error({ err }, 'generation stream failed');
    body.destroy();
  });
  return (
    reply
      .code(200)
      .header('content-type', 'application/x-ndjson; charset=utf-8')
      // Proxies such as nginx would otherwise buffer the stream.
      .header('x-accel-buffering', 'no')
      .send(body)
  );
}

/**
 * A tool's two routes: POST /api/generators/<name> (its input, schema-checked; an NDJSON
 * stream back) and GET /api/generators/<name>/history (the signed-in user's last 20).
 * Register inside the protected scope.
 */
export function generatorRoutes<N extends GeneratorName>(
  definition: GeneratorDefinition<N>,
): FastifyPluginAsyncZod<GeneratorRoutesOptions> {
  const { name } = definition;
  return async (app, { generations }) => {
    app.post(
      generatorPaths.generate(name),
      {
        schema: { body: generatorInputSchemas[name] },
        compress: false,
        // Not configured: 503 whatever the body, so the page can say so at once.
        preValidation: async () => generations.assertConfigured(),
      },
      async (req, reply) => {
        const input = req.body as GeneratorInput<N>;
        const events = await generations.stream({
          identity: identityOf(req),
          generator: name,
          input,
          prompt: definition.prompt(input),
          limit: definition.limit,
          maxOutputTokens: definition.maxOutputTokens,
          signal: abortWhenClientLeaves(reply),
          log: req.log,
        });
        return sendNdjson(reply, events);
      },
    );
    app.get(
      generatorPaths.history(name),
      { schema: { response: { 200: generationHistoryResponseSchema } } },
      (req) => generations.history(identityOf(req), name),
    );
  };
}
