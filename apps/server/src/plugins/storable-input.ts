import { toStorableText } from '@gem/contracts/storable-text';
import { isStorableText, unstorableTextMessage } from '@gem/contracts/text-rules';
import type { ValidationIssue } from '@gem/contracts/errors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from './errors';

/**
 * The storableText rule of request bodies (contracts) for every query-string and path parameter
 * of every route, whether or not its schema says so: a NUL (which PostgreSQL refuses, so the
 * query would fail with a 500) is a 400 that names the parameter, before the route's own
 * validation. Half a surrogate pair cannot arrive in a URL (Node decodes UTF-8), but is checked
 * the same way.
 */

/** Issues for each parameter of `values` (a parsed query or the path's parameters) that cannot be stored. */
function unstorable(part: 'querystring' | 'params', values: unknown): ValidationIssue[] {
  if (values === null || typeof values !== 'object') return [];
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(values)) {
    const texts: unknown[] = Array.isArray(value) ? value : [value];
    if (isStorableText(name) && texts.every((t) => typeof t !== 'string' || isStorableText(t))) continue;
    const shown = toStorableText(name);
    issues.push({ path: `${part}.${shown}`, message: unstorableTextMessage(`The parameter “${shown}”`) });
  }
  return issues;
}

export const storableInputPlugin = fp(async (app: FastifyInstance) => {
  // A callback hook: it runs on every request, and an async one costs a promise each time.
  app.addHook('preValidation', (req, reply, done) => {
    const issues = [...unstorable('params', req.params), ...unstorable('querystring', req.query)];
    if (issues.length === 0) return done();
    req.log.info({ issues: issues.map((i) => i.path) }, 'request rejected: a parameter cannot be stored');
    sendError(reply, 400, 'validation_failed', 'Some fields are not valid.', issues);
  });
});
