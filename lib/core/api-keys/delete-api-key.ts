import { and, eq } from 'drizzle-orm';
import { authorizeHoldingEveryScopeOf } from '@/lib/auth/authorize';
import { recordAuditEvent, type AuditSource } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import type { DbOrTx } from '@/lib/db/client';
import { apiKeys } from '@/lib/db/schema';
import { getApiKeyInAccount, loadScopesOfKeys } from './internal/queries';
import { apiKeyIdSchema } from './schemas';

/** Only a caller holding every scope of the key may delete it. */
export const deleteApiKey = defineVerb({
  scope: 'api-keys:delete',
  input: z.object({ key_id: apiKeyIdSchema }),
  async run(ctx, input) {
    return deleteApiKeyInAccount(ctx.db, ctx, ctx.principal.targetAccountId, input.key_id);
  },
});

/** Shared with the sub-account key verbs, where `accountId` is the child's and the caller a parent key. */
export async function deleteApiKeyInAccount(db: DbOrTx, source: AuditSource, accountId: string, keyId: string) {
  const key = await getApiKeyInAccount(db, accountId, keyId);
  authorizeHoldingEveryScopeOf(source.principal, {
    kind: 'api_key',
    scopes: (await loadScopesOfKeys(db, [key.id])).map((s) => s.scope),
  });
  // Scope rows go with the key (ON DELETE CASCADE).
  await db.transaction(async (tx) => {
    await tx.delete(apiKeys).where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.id, key.id)));
    await recordAuditEvent(tx, source, {
      action: 'api_key.delete',
      resource: { type: 'api_key', id: key.id },
      accountId,
    });
  });
  return { message: `api key ${key.id} (${key.label}) deleted successfully` };
}
