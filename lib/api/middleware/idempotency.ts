import type { Context } from 'hono';
import type { Principal } from '@/lib/auth/principal';
import { claimIdempotencyKey } from '@/lib/core/idempotency/claim-idempotency-key';
import { completeIdempotencyKey } from '@/lib/core/idempotency/complete-idempotency-key';
import { releaseIdempotencyKey } from '@/lib/core/idempotency/release-idempotency-key';
import { AppError, invalidInput } from '@/lib/shared/errors';
import { sha256Hex } from '@/lib/shared/crypto';
import { errorResponse, idempotencyInProgress, idempotencyMismatch } from '../errors';
import type { ApiDeps, ApiEnv } from '../services';

/**
 * `standard`: 2xx and deterministic 4xx are stored for 24 h and replayed.
 * `uncommitted-conflicts`: as standard, but a 409 is not stored (a campaign test send: the spec's rule),
 * so a retry with the same key runs again once the campaign is a draft again.
 * `secret`: API-key creation. The 201 is stored encrypted for 5 minutes and replays the same secret,
 * to the credential that made it only; a 4xx is not stored and the key stays in progress until its
 * lease runs out (the spec's rule).
 * `sealed`: as standard, but stored encrypted: the answer may carry a link that works as a
 * credential (a member invitation when no system sender mails it).
 */
export type IdempotencyMode = 'standard' | 'uncommitted-conflicts' | 'secret' | 'sealed';

const REPLAY_PURPOSE = 'idempotency-replay';
const STANDARD_TTL_MS = 24 * 60 * 60 * 1000;
const SECRET_TTL_MS = 5 * 60 * 1000;
// The 5-minute lease only guards against a crashed worker; a live request ends within a second or
// two, so that is how long a client should wait before asking again.
const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;

/** Who a stored response belongs to. */
function credentialOf(principal: Principal): string {
  if (principal.apiKeyId) return `${principal.kind}:${principal.apiKeyId}`;
  if (principal.userId) return `user:${principal.userId}`;
  return principal.kind;
}

/**
 * The idempotency step of the chain. It runs after the scope checks (a replay is a response the
 * caller must be allowed to see) and before validation (a 400 is a deterministic outcome, stored and
 * replayed like any other). `execute` is the rest of the chain; its errors become responses here so
 * that they can be stored, written by the one error writer.
 */
export async function withIdempotency(
  c: Context<ApiEnv>,
  deps: ApiDeps,
  step: { mode: IdempotencyMode; principal: Principal; rawBody: string },
  execute: () => Promise<Response>,
): Promise<Response> {
  const key = c.req.header('idempotency-key');
  if (key === undefined) return execute();
  if (key.length === 0 || key.length > 255) throw invalidInput('Idempotency-Key must be between 1 and 255 characters');
  const target = { accountId: step.principal.targetAccountId, key };
  const claim = await claimIdempotencyKey(
    deps.db,
    {
      ...target,
      method: c.req.method,
      path: c.req.path,
      bodyHash: sha256Hex(step.rawBody),
      credential: credentialOf(step.principal),
    },
    deps.now(),
  );
  if (claim.kind === 'replay') {
    const body = claim.isEncrypted ? deps.secrets.decrypt(REPLAY_PURPOSE, claim.body) : claim.body;
    return new Response(body, {
      status: claim.status,
      headers: { 'content-type': 'application/json', 'Idempotent-Replayed': 'true' },
    });
  }
  if (claim.kind === 'in_progress') throw idempotencyInProgress(IN_PROGRESS_RETRY_AFTER_SECONDS);
  if (claim.kind === 'mismatch') throw idempotencyMismatch();

  let response: Response;
  try {
    response = await execute();
  } catch (error) {
    if (!(error instanceof AppError)) {
      await releaseIdempotencyKey(deps.db, target).catch(() => {});
      throw error;
    }
    response = errorResponse(c, error);
  }
  await recordOutcome({ ...deps, logger: c.get('logger') ?? deps.logger }, step.mode, target, response);
  return response;
}

async function recordOutcome(
  deps: ApiDeps,
  mode: IdempotencyMode,
  target: { accountId: string; key: string },
  response: Response,
): Promise<void> {
  const status = response.status;
  const isSuccess = status >= 200 && status < 300;
  // A 4xx with Retry-After (429, a template write that kept colliding) says "try again": the
  // retry, with the same key, must run again rather than replay it (service spec, Errors rule 2).
  const isDeterministicClientError =
    status >= 400 && status < 500 && status !== 429 && !response.headers.has('retry-after');
  try {
    const isStored =
      isSuccess ||
      (isDeterministicClientError &&
        (mode === 'standard' || mode === 'sealed' || (mode === 'uncommitted-conflicts' && status !== 409)));
    if (isStored) {
      const text = await response.clone().text();
      const isEncrypted = mode === 'secret' || mode === 'sealed';
      await completeIdempotencyKey(
        deps.db,
        target,
        {
          status,
          body: isEncrypted ? deps.secrets.encrypt(REPLAY_PURPOSE, text) : text,
          isEncrypted,
          ttlMs: mode === 'secret' ? SECRET_TTL_MS : STANDARD_TTL_MS,
        },
        deps.now(),
      );
    } else if (!(isDeterministicClientError && mode === 'secret')) {
      await releaseIdempotencyKey(deps.db, target);
    }
  } catch (error) {
    // The response itself is good; failing to store it only means a retry would run again.
    deps.logger.error({ err: error }, 'could not record idempotency outcome');
  }
}
