import type { MiddlewareHandler } from 'hono';
import { claimIdempotencyKey } from '@/lib/core/idempotency/claim-idempotency-key';
import { completeIdempotencyKey } from '@/lib/core/idempotency/complete-idempotency-key';
import { releaseIdempotencyKey } from '@/lib/core/idempotency/release-idempotency-key';
import { invalidInput } from '@/lib/shared/errors';
import { sha256Hex } from '@/lib/shared/crypto';
import { readRawBody } from '../body';
import type { ApiDeps, ApiEnv } from '../services';

/**
 * `standard`: 2xx and deterministic 4xx are stored for 24 h and replayed.
 * `secret`: API-key creation. The 201 is stored encrypted for 5 minutes and replays the same secret;
 * a 4xx is not stored and the key stays in progress until its lease runs out (the spec's rule).
 */
export type IdempotencyMode = 'standard' | 'secret';

const REPLAY_PURPOSE = 'idempotency-replay';
const STANDARD_TTL_MS = 24 * 60 * 60 * 1000;
const SECRET_TTL_MS = 5 * 60 * 1000;

const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

export function idempotency(deps: ApiDeps, mode: IdempotencyMode, bodyLimit: number): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined) return next();
    if (key.length === 0 || key.length > 255) throw invalidInput('Idempotency-Key must be between 1 and 255 characters');
    const principal = c.get('principal');
    const raw = await readRawBody(c, bodyLimit);
    const target = { accountId: principal.targetAccountId, key };
    const claim = await claimIdempotencyKey(
      deps.db,
      { ...target, method: c.req.method, path: c.req.path, bodyHash: sha256Hex(raw) },
      deps.now(),
    );

    if (claim.kind === 'replay') {
      const body = claim.isEncrypted ? deps.secrets.decrypt(REPLAY_PURPOSE, claim.body) : claim.body;
      return new Response(body, { status: claim.status, headers: { 'content-type': 'application/json', 'Idempotent-Replayed': 'true' } });
    }
    if (claim.kind === 'in_progress') {
      return json({ message: 'A request with this idempotency key is already in progress' }, 409, {
        'Idempotent-Replayed': 'false',
        'Retry-After': String(claim.retryAfterSeconds),
      });
    }
    if (claim.kind === 'mismatch') {
      return json({ message: 'idempotency key was already used with a different request payload' }, 422);
    }

    try {
      await next();
    } catch (error) {
      await releaseIdempotencyKey(deps.db, target).catch(() => {});
      throw error;
    }
    const status = c.res.status;
    const isSuccess = status >= 200 && status < 300;
    const isDeterministicClientError = status >= 400 && status < 500 && status !== 429;
    try {
      if (isSuccess || (isDeterministicClientError && mode === 'standard')) {
        const text = await c.res.clone().text();
        const isEncrypted = mode === 'secret';
        await completeIdempotencyKey(
          deps.db,
          target,
          { status, body: isEncrypted ? deps.secrets.encrypt(REPLAY_PURPOSE, text) : text, isEncrypted, ttlMs: isEncrypted ? SECRET_TTL_MS : STANDARD_TTL_MS },
          deps.now(),
        );
      } else if (!(isDeterministicClientError && mode === 'secret')) {
        await releaseIdempotencyKey(deps.db, target);
      }
    } catch (error) {
      // The response itself is good; failing to store it only means a retry would run again.
      deps.logger.error({ err: error }, 'could not record idempotency outcome');
    }
  };
}
