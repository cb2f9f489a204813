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
 * While a stream has nothing to say (the model went quiet mid-answer, or a second model call has
 * not started writing yet), an empty line once the body has been silent this long: proxies and
 * load balancers cut a connection that stays silent too long (nginx's proxy_read_timeout, 60 s
 * unless set). Readers skip empty lines (NDJSON allows them; apps/web/src/lib/ndjson.ts does).
 */
export const NDJSON_HEARTBEAT_MS = 10_000;
const HEARTBEAT = '\n';

/**
 * Answers 200 with an NDJSON body of `events`. The iterable is drained to its end even when the
 * client left (whatever it records at its end is still recorded); a failure of the iterable
 * itself is logged and cuts the body short. The body is never silent longer than `heartbeatMs`:
 * an empty line goes out then.
 */
export function sendNdjson<T>(
  reply: FastifyReply,
  events: AsyncIterable<T>,
  { heartbeatMs = NDJSON_HEARTBEAT_MS }: { heartbeatMs?: number } = {},
) {
  const body = new PassThrough();
  const open = () => !body.destroyed && !body.writableEnded;
  // One timer for the whole stream, re-armed (refresh) by every line: no timer per event.
  const heartbeat = setTimeout(function beat() {
    if (!open()) return;
    body.write(HEARTBEAT);
    heartbeat.refresh();
  }, heartbeatMs);
  heartbeat.unref();
  const stop = () => clearTimeout(heartbeat);
  body.once('close', stop);
  void (async () => {
    for await (const event of events) {
      if (open()) {
        body.write(`${JSON.stringify(event)}\n`);
        heartbeat.refresh();
      }
    }
    stop();
    body.end();
  })().catch((err: unknown) => {
    stop();
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
