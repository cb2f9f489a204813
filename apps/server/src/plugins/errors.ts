import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import {
  errorCodeForStatus,
  type ErrorCode,
  type ErrorResponse,
  type ValidationIssue,
} from '@gem/contracts/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/client';
import { AppError } from '../lib/app-error';

/** The one place that turns an error into the contracts' error shape. */

// Fastify's own client errors, reworded for people.
const messageByFastifyCode: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request is too large.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request length does not match its content.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty. Send a JSON object.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
};

// Any other client error: a library's own message may name internals, so the status speaks.
const messageByStatus: Record<number, string> = {
  400: 'The request is not valid.',
  404: 'Not found.',
  405: 'This method is not allowed here.',
  406: 'The requested format is not available.',
  408: 'The request took too long to arrive.',
  413: 'The request is too large.',
  415: 'This content type is not supported here.',
  429: 'Too many requests. Please try again later.',
  431: 'The request headers are too large.',
};

/**
 * A 415 says what the route takes: JSON for the API, a urlencoded form for the embedded
 * provider's sign-in pages (which accept nothing else).
 */
function unsupportedMediaTypeMessage(req: FastifyRequest): string {
  if (req.server.hasContentTypeParser('application/json')) {
    return 'This content type is not supported here. Send JSON.';
  }
  if (req.server.hasContentTypeParser('application/x-www-form-urlencoded')) {
    return 'This content type is not supported here. Send the form as application/x-www-form-urlencoded, as the sign-in page does.';
  }
  return messageByStatus[415]!;
}

export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again.';

export function sendError(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  message: string,
  issues?: ValidationIssue[],
) {
  const body: ErrorResponse = {
    error: { code, message, ...(issues ? { issues } : {}), requestId: String(reply.request.id) },
  };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** A database that cannot be reached (restarting, failing over): try again shortly. */
export const DATABASE_UNAVAILABLE_MESSAGE =
  'GEM cannot reach its database right now. Please try again in a few seconds.';
const DATABASE_RETRY_SECONDS = 5;

function handleError(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(err)) {
    const issues = err.validation.map((v) => ({
      path: [err.validationContext, ...v.instancePath.split('/').filter(Boolean)].join('.'),
      message: v.message ?? 'is invalid',
    }));
    return sendError(reply, 400, 'validation_failed', 'Some fields are not valid.', issues);
  }
  if (err instanceof AppError) {
    if (err.statusCode >= 500) req.log.error({ err }, 'request failed');
    if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds));
    return sendError(reply, err.statusCode, err.code, err.message, err.issues);
  }
  if (isDatabaseUnavailable(err)) {
    req.log.error({ err }, 'request failed: the database cannot be reached');
    reply.header('retry-after', String(DATABASE_RETRY_SECONDS));
    return sendError(reply, 503, 'service_unavailable', DATABASE_UNAVAILABLE_MESSAGE);
  }
  const status = err.statusCode ?? 500;
  if (status >= 500 || isResponseSerializationError(err)) {
    req.log.error({ err }, 'request failed');
    return sendError(reply, 500, 'internal_error', INTERNAL_ERROR_MESSAGE);
  }
  req.log.info({ code: err.code, status }, 'request rejected');
  const message =
    err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
      ? unsupportedMediaTypeMessage(req)
      : (messageByFastifyCode[err.code] ?? messageByStatus[status] ?? 'The request could not be handled.');
  return sendError(reply, status, errorCodeForStatus(status), message);
}

/**
 * Fastify's `clientErrorHandler` server option. Node's HTTP parser refuses some requests before
 * Fastify sees them (headers over --max-http-header-size, a malformed request line, a request
 * that took too long to arrive); they are answered in the error shape too, then the connection
 * is closed, as Node and Fastify do.
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  this.log.info({ code: err.code, status }, 'request rejected');
  if (socket.writable) {
    const body: ErrorResponse = {
      error: { code: errorCodeForStatus(status), message: messageByStatus[status] ?? messageByStatus[400]! },
    };
    const json = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        'Cache-Control: no-store\r\n' +
        'X-Content-Type-Options: nosniff\r\n' +
        `Connection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(err);
}

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler(handleError);
});
