import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Streaming answers as NDJSON: one JSON value per line, each written as soon as it is there.
 * The writing tools stream their generation events with it; any route that streams does.
 * Register such a route with `compress: false`, so nothing holds a line back.
 */

/**
 * An AbortSignal that fires when the client goes away before the answer is complete, so the
 * work behind it (a model call) is aborted with it.
 */
export function abortWhenClientLeaves(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * Answers 200 with an NDJSON body of `events`. The iterable is drained to its end even when the
 * client left (whatever it records at its end is still recorded); a failure of the iterable
 * itself is logged and cuts the body short.
 */
export function sendNdjson<T>(reply: FastifyReply, events: AsyncIterable<T>) {
  const body = new PassThrough();
  void (async () => {
    for await (const event of events) {
      if (!body.destroyed && !body.writableEnded) body.write(`${JSON.stringify(event)}\n`);
    }
    body.end();
  })().catch((err: unknown) => {
    reply.log.error({ err }, 'NDJSON stream failed');
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
