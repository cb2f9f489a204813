import type { ErrorCode, ErrorResponse, ValidationIssue } from '@gem/contracts/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error';

/** The one place that turns an error into the contracts' error shape. */

const codeByStatus: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
  503: 'service_unavailable',
};

// Fastify's own client errors, reworded for people.
const messageByFastifyCode: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'This content type is not supported here. Send JSON.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request length does not match its content.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty. Send a JSON object.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
};

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
    return sendError(reply, err.statusCode, err.code, err.message);
  }
  const status = err.statusCode ?? 500;
  if (status >= 500 || isResponseSerializationError(err)) {
    req.log.error({ err }, 'request failed');
    return sendError(reply, 500, 'internal_error', INTERNAL_ERROR_MESSAGE);
  }
  req.log.info({ code: err.code, status }, 'request rejected');
  const message = messageByFastifyCode[err.code] ?? err.message;
  return sendError(reply, status, codeByStatus[status] ?? 'bad_request', message);
}

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler(handleError);
});
