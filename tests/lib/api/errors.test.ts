import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import {
  errorResponse,
  idempotencyInProgress,
  idempotencyMismatch,
  methodNotAllowed,
  rateLimited,
  STATUS_OF,
} from '@/lib/api/errors';
import { AppError, ERROR_KINDS, invalidInput } from '@/lib/shared/errors';

/** A bare app whose routes throw what they are given, answered by the one error writer. */
function appThrowing(error: unknown) {
  const app = new Hono();
  app.all('*', () => {
    throw error;
  });
  app.onError((thrown, c) => errorResponse(c, thrown));
  return app;
}

async function answer(path: string, error: unknown) {
  const response = await appThrowing(error).request(path);
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe('errorResponse', () => {
  it('maps every error kind to a status', () => {
    for (const kind of ERROR_KINDS) expect(STATUS_OF[kind]).toBeGreaterThanOrEqual(400);
  });

  const cases: [string, AppError, number, Record<string, string>][] = [
    ['rate limited', rateLimited(3), 429, { 'retry-after': '3' }],
    ['idempotency in progress', idempotencyInProgress(1), 409, { 'idempotent-replayed': 'false', 'retry-after': '1' }],
    ['idempotency mismatch', idempotencyMismatch(), 422, {}],
    ['method not allowed', methodNotAllowed('PATCH', ['GET', 'POST']), 405, { allow: 'GET, POST' }],
    [
      'invalid input naming a field',
      invalidInput('label: is required', 'label'),
      400,
      { 'mailstead-error-field': 'label' },
    ],
  ];
  for (const [name, error, status, headers] of cases) {
    it(`${name}: ${status} with its headers, {"message"} on v2 and {"status"} on v1`, async () => {
      const v2 = await answer('/v2/accounts/x/api-keys', error);
      expect(v2.status).toBe(status);
      expect(v2.body).toEqual({ message: error.message });
      for (const [header, value] of Object.entries(headers)) expect(v2.headers.get(header)).toBe(value);
      const v1 = await answer('/v1/email/send', error);
      expect(v1.status).toBe(status);
      expect(v1.body).toEqual({ status: error.message });
      for (const [header, value] of Object.entries(headers)) expect(v1.headers.get(header)).toBe(value);
    });
  }

  it('an idempotency mismatch carries neither idempotency header', async () => {
    const response = await answer('/v2/x', idempotencyMismatch());
    expect(response.headers.get('idempotent-replayed')).toBeNull();
    expect(response.headers.get('retry-after')).toBeNull();
  });

  it('a database that cannot be reached is 503 with Retry-After in the right envelope, never 500', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const shutdown = Object.assign(new Error('Failed query: select 1'), {
      cause: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    });
    for (const error of [refused, shutdown]) {
      const v2 = await answer('/v2/accounts/x/messages', error);
      expect(v2).toMatchObject({
        status: 503,
        body: { message: 'the database cannot be reached right now; retry later' },
      });
      expect(v2.headers.get('retry-after')).toBe('5');
      const v1 = await answer('/v1/email/send', error);
      expect(v1).toMatchObject({
        status: 503,
        body: { status: 'the database cannot be reached right now; retry later' },
      });
      expect(v1.headers.get('retry-after')).toBe('5');
    }
  });

  it('anything else is a 500 with a generic message in the right envelope', async () => {
    expect(await answer('/v2/x', new Error('select * from secrets'))).toMatchObject({
      status: 500,
      body: { message: 'internal server error' },
    });
    expect(await answer('/v1/email/send', new TypeError('boom'))).toMatchObject({
      status: 500,
      body: { status: 'internal server error' },
    });
  });
});

describe('errorResponse with a field outside printable ASCII', () => {
  it('still answers 400, without the field header', async () => {
    const response = await answer(
      '/v2/x',
      invalidInput('substitutions.ключ.…: nested deeper than 32 levels', 'substitutions.ключ'),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('mailstead-error-field')).toBeNull();
  });
});
