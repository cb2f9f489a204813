import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config';

/**
 * pino options. Requests are logged as method + path only: no query string (it can carry
 * search terms or OAuth codes), no headers (tokens, cookies), never a body. Any field named
 * like a secret or an e-mail is redacted wherever it appears.
 */
export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.log.level,
    redact: {
      paths: [
        'password',
        'token',
        'accessToken',
        'refreshToken',
        'idToken',
        'authorization',
        'email',
        '*.password',
        '*.token',
        '*.accessToken',
        '*.refreshToken',
        '*.idToken',
        '*.authorization',
        '*.email',
        'req.headers',
        'req.body',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0],
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    ...(config.log.pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}

const requestIdPattern = /^[A-Za-z0-9._:-]{1,64}$/;

/** Keeps a well-formed incoming x-request-id (from a proxy) so logs line up; otherwise a new one. */
export function generateRequestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : randomUUID();
}
