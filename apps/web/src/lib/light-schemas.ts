import { errorCodes } from '@gem/contracts/error-codes';
import type { ErrorResponse } from '@gem/contracts/errors';
import type { AuthConfigResponse, CheckAppAccessResponse } from '@gem/contracts/identity';

/**
 * The response checks that every page's first chunk needs, written without zod: importing a
 * contracts schema brings the whole of zod along (27 KB gzip), which the sign-in page and the
 * QR code generator have no other use for. Each check mirrors its schema in packages/contracts,
 * and light-schemas.test.ts holds it to that schema. Tools keep using the zod schemas; they
 * load with the tool.
 */

/** What `api.get(path, { schema })` takes: the part of a zod schema the API client uses. */
export type LightSchema<T> = { parse(data: unknown): T };

type Check = (value: unknown) => boolean;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString: Check = (value) => typeof value === 'string';
const isNonEmptyString: Check = (value) => typeof value === 'string' && value.length > 0;
const isBoolean: Check = (value) => typeof value === 'boolean';
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);
const nullable =
  (check: Check): Check =>
  (value) =>
    value === null || check(value);
// Looser than zod's own e-mail and URL rules: enough to catch a drifted or broken answer.
const isEmail: Check = (value) => typeof value === 'string' && /^[^\s@]+@[^\s@]+$/.test(value);
const isUrl: Check = (value) => {
  if (typeof value !== 'string') return false;
  try {
    return Boolean(new URL(value));
  } catch {
    return false;
  }
};
const isErrorCode: Check = (value) => (errorCodes as readonly unknown[]).includes(value);
const arrayOf =
  (check: Check, length?: number): Check =>
  (value) =>
    Array.isArray(value) && (length === undefined || value.length === length) && value.every(check);
const shape =
  (fields: Record<string, Check>): Check =>
  (value) =>
    isRecord(value) && Object.entries(fields).every(([key, check]) => check(value[key]));

function lightSchema<T>(name: string, check: Check): LightSchema<T> {
  return {
    parse(data) {
      if (!check(data)) throw new TypeError(`The server's answer is not a valid ${name}.`);
      // Unlike zod, unknown fields are not stripped; callers read only the fields they know.
      return data as T;
    },
  };
}

/** Mirrors `authConfigResponseSchema` (contracts/identity). */
export const authConfigResponse = lightSchema<AuthConfigResponse>(
  'auth config',
  shape({
    authority: isUrl,
    clientId: isNonEmptyString,
    scope: isNonEmptyString,
    resource: nullable(isString),
    audience: isNonEmptyString,
    embedded: isBoolean,
    accessContacts: arrayOf(isEmail, 3),
    demoAccounts: optional(
      arrayOf(shape({ email: isNonEmptyString, password: isNonEmptyString, label: isNonEmptyString })),
    ),
  }),
);

/** Mirrors `checkAppAccessResponseSchema` (contracts/identity). */
export const checkAppAccessResponse = lightSchema<CheckAppAccessResponse>(
  'access check',
  shape({ hasAccess: isBoolean }),
);

const isErrorResponse = shape({
  error: shape({
    code: isErrorCode,
    message: isString,
    issues: optional(arrayOf(shape({ path: isString, message: isString }))),
    requestId: optional(isString),
  }),
});

/** Mirrors `errorResponseSchema` (contracts/errors): the error, or undefined for any other body. */
export function readErrorResponse(body: unknown): ErrorResponse['error'] | undefined {
  return isErrorResponse(body) ? (body as ErrorResponse).error : undefined;
}
