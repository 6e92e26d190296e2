import { and, eq } from 'drizzle-orm';
import { authorizeHoldingEveryScopeOf } from '@/lib/auth/authorize';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { apiKeys } from '@/lib/db/schema';
import { presentApiKey } from './internal/present';
import { getApiKeyInAccount, loadScopesOfKeys } from './internal/queries';
import { apiKeyIdSchema } from './schemas';

/**
 * Sandbox mode of a key: everything it sends runs the pipeline without leaving the machine. AhaSend
 * keeps this out of the v2 API (a dashboard setting), so it lives under /internal.
 */
export const setApiKeySandbox = defineVerb({
  scope: 'api-keys:write',
  input: z.object({ key_id: apiKeyIdSchema, sandbox: z.boolean({ error: 'must be true or false' }) }),
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const key = await getApiKeyInAccount(db, principal.targetAccountId, input.key_id);
    authorizeHoldingEveryScopeOf(principal, {
      kind: 'api_key',
      scopes: (await loadScopesOfKeys(db, [key.id])).map((s) => s.scope),
    });
    const row = await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(apiKeys)
        .set({ isSandbox: input.sandbox, updatedAt: now() })
        .where(and(eq(apiKeys.accountId, principal.targetAccountId), eq(apiKeys.id, key.id)))
        .returning();
      await recordAuditEvent(tx, ctx, {
        action: 'api_key.update',
        resource: { type: 'api_key', id: key.id },
        changes: ['sandbox'],
      });
      return updated;
    });
    return presentApiKey(row, await loadScopesOfKeys(db, [key.id]));
  },
});
