import { errorCodes } from '@gem/contracts/error-codes';
import { errorResponseSchema } from '@gem/contracts/errors';
import { authConfigResponseSchema, checkAppAccessResponseSchema } from '@gem/contracts/identity';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { authConfigResponse, checkAppAccessResponse, readErrorResponse } from './light-schemas';

// Answers the server can give: generated to satisfy the contracts' zod schemas.
const email = fc.constantFrom('a@example.com', 'it-servicedesk@gem.example', 'x.y@sub.example.pl');
const authConfig = fc.record({
  authority: fc.constantFrom('http://127.0.0.1:3000/oidc', 'https://login.microsoftonline.com/t/v2.0'),
  clientId: fc.string({ minLength: 1 }),
  scope: fc.string({ minLength: 1 }),
  resource: fc.option(fc.string(), { nil: null }),
  audience: fc.string({ minLength: 1 }),
  embedded: fc.boolean(),
  accessContacts: fc.tuple(email, email, email),
});
const errorBody = fc.record({
  error: fc.record(
    {
      code: fc.constantFrom(...errorCodes),
      message: fc.string(),
      issues: fc.array(fc.record({ path: fc.string(), message: fc.string() })),
      requestId: fc.string(),
    },
    { requiredKeys: ['code', 'message'] },
  ),
});

// Broken answers: each field of a valid one replaced by something of the wrong kind.
const wrongValues = [undefined, null, 0, true, '', 'not a url', [], {}];
function breakings(valid: Record<string, unknown>): unknown[] {
  return Object.keys(valid).flatMap((key) => wrongValues.map((wrong) => ({ ...valid, [key]: wrong })));
}

describe('the light schemas agree with the contracts', () => {
  it('accept every auth config the contract accepts', () => {
    fc.assert(
      fc.property(authConfig, (config) => {
        expect(authConfigResponseSchema.safeParse(config).success).toBe(true);
        expect(authConfigResponse.parse(config)).toEqual(config);
      }),
    );
  });

  it('refuse the auth configs the contract refuses', () => {
    const valid = authConfigResponseSchema.parse(fc.sample(authConfig, 1)[0]);
    for (const broken of [null, 'text', [], ...breakings(valid)]) {
      if (authConfigResponseSchema.safeParse(broken).success) continue;
      expect(() => authConfigResponse.parse(broken), JSON.stringify(broken)).toThrow(TypeError);
    }
    expect(() => authConfigResponse.parse({ ...valid, accessContacts: ['a@example.com'] })).toThrow();
  });

  it('read the error shape exactly when the contract does', () => {
    fc.assert(
      fc.property(errorBody, (body) => {
        expect(readErrorResponse(body)).toEqual(errorResponseSchema.parse(body).error);
      }),
    );
    const valid = { error: { code: 'not_found', message: 'Nothing here.' } };
    const broken = [
      ...breakings(valid),
      ...breakings(valid.error).map((error) => ({ error })),
      { error: { ...valid.error, code: 'teapot' } },
      { error: { ...valid.error, issues: [{ path: 1, message: 'x' }] } },
      '<html>',
    ];
    for (const body of broken) {
      expect(readErrorResponse(body), JSON.stringify(body)).toEqual(
        errorResponseSchema.safeParse(body).success ? expect.anything() : undefined,
      );
    }
  });

  it('check the access answer as the contract does', () => {
    for (const body of [{ hasAccess: true }, { hasAccess: false }]) {
      expect(checkAppAccessResponse.parse(body)).toEqual(checkAppAccessResponseSchema.parse(body));
    }
    for (const body of [{}, { hasAccess: 'yes' }, null, []]) {
      expect(checkAppAccessResponseSchema.safeParse(body).success).toBe(false);
      expect(() => checkAppAccessResponse.parse(body)).toThrow(TypeError);
    }
  });
});
