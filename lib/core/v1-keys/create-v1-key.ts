import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { v1Keys } from '@/lib/db/schema';
import { randomToken, sha256Hex } from '@/lib/shared/crypto';
import { presentV1Key } from './internal/present';
import { createV1KeySchema } from './schemas';

const V1_KEY_PREFIX = 'v1-';

/**
 * A key for the legacy `POST /v1/email/send`; it sends from any domain, so it needs the power to make
 * keys. The secret is shown in this response only; the database keeps its hash and a short hint.
 */
export const createV1Key = defineVerb({
  scope: 'api-keys:write',
  input: createV1KeySchema,
  async run(ctx, input) {
    const { db, principal } = ctx;
    const secret = V1_KEY_PREFIX + randomToken(48);
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .insert(v1Keys)
        .values({
          accountId: principal.targetAccountId,
          label: input.label,
          secretHash: sha256Hex(secret),
          hint: secret.slice(0, V1_KEY_PREFIX.length + 6),
        })
        .returning();
      await recordAuditEvent(tx, ctx, { action: 'v1_key.create', resource: { type: 'v1_key', id: changed.id } });
      return changed;
    });
    return { ...presentV1Key(row), key: secret };
  },
});
