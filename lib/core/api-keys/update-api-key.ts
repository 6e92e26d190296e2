import { and, eq, inArray } from 'drizzle-orm';
import { authorizeHoldingEveryScopeOf } from '@/lib/auth/authorize';
import { AppError, conflict, invalidInput } from '@/lib/shared/errors';
import { recordAuditEvent, type AuditSource } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import type { DbOrTx } from '@/lib/db/client';
import { apiKeys, apiKeyScopes } from '@/lib/db/schema';
import type { z } from '@/lib/core/zod';
import { anyCidrContains, parseCidrList } from '@/lib/shared/ip';
import { canonicalizeIpAllowList } from './internal/canonicalize-ip-allow-list';
import { presentApiKey } from './internal/present';
import { getApiKeyInAccount, loadScopesOfKeys } from './internal/queries';
import { resolveScopes } from './internal/resolve-scopes';
import { apiKeyIdSchema, updateApiKeySchema } from './schemas';

type UpdateApiKeyInput = z.output<typeof updateApiKeySchema>;

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item) => b.includes(item));

/**
 * Null or omitted fields stay as they are; `ip_allow_list: []` clears the list. The request must
 * change something. A key may not lock itself out: a new list that excludes the caller's own IP,
 * set through the same key, is a 409 and nothing is saved. Only a caller holding every scope of the
 * key may change it.
 */
export const updateApiKey = defineVerb({
  scope: 'api-keys:write',
  input: updateApiKeySchema.extend({ key_id: apiKeyIdSchema }),
  async run(ctx, input) {
    return updateApiKeyInAccount(ctx.db, ctx, ctx.principal.targetAccountId, input, ctx.now());
  },
});

/** Shared with the sub-account key verbs, where `accountId` is the child's and the caller a parent key. */
export async function updateApiKeyInAccount(
  db: DbOrTx,
  source: AuditSource,
  accountId: string,
  input: UpdateApiKeyInput & { key_id: string },
  at: Date,
) {
  const { principal } = source;
  if (input.label == null && input.scopes == null && input.ip_allow_list == null) {
    throw invalidInput('at least one of label, scopes or ip_allow_list must be given');
  }
  const key = await getApiKeyInAccount(db, accountId, input.key_id);
  const currentScopes = await loadScopesOfKeys(db, [key.id]);
  authorizeHoldingEveryScopeOf(principal, { kind: 'api_key', scopes: currentScopes.map((s) => s.scope) });

  const label = input.label ?? key.label;
  const ipAllowList = input.ip_allow_list != null ? canonicalizeIpAllowList(input.ip_allow_list) : key.ipAllowList;
  const scopes = input.scopes != null ? await resolveScopes(db, accountId, principal, input.scopes) : null;

  const labelChanged = label !== key.label;
  const listChanged = !sameSet(ipAllowList, key.ipAllowList);
  const scopesChanged =
    scopes !== null &&
    !sameSet(
      scopes.map((s) => s.scope),
      currentScopes.map((s) => s.scope),
    );
  if (!labelChanged && !listChanged && !scopesChanged) {
    throw invalidInput('nothing to change: the given values equal the current ones');
  }
  if (listChanged && principal.kind === 'api_key' && principal.apiKeyId === key.id && ipAllowList.length > 0) {
    if (!anyCidrContains(parseCidrList(ipAllowList), principal.clientIp)) {
      throw conflict(
        `this change would lock the key out: the new ip_allow_list does not cover the caller's IP ${principal.clientIp}`,
        'ip_allow_list',
      );
    }
  }

  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ label, ipAllowList, updatedAt: at })
      .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.id, key.id)))
      .returning();
    if (!row) throw new AppError('not_found', 'api key not found');
    if (scopes && scopesChanged) {
      const wanted = new Set(scopes.map((s) => s.scope));
      const removed = currentScopes.filter((s) => !wanted.has(s.scope)).map((s) => s.id);
      if (removed.length) await tx.delete(apiKeyScopes).where(inArray(apiKeyScopes.id, removed));
      const kept = new Set(currentScopes.map((s) => s.scope));
      const added = scopes.filter((s) => !kept.has(s.scope));
      if (added.length)
        await tx
          .insert(apiKeyScopes)
          .values(added.map((s) => ({ apiKeyId: key.id, scope: s.scope, domainId: s.domainId })));
    }
    await recordAuditEvent(tx, source, {
      action: 'api_key.update',
      resource: { type: 'api_key', id: key.id },
      changes: [
        ...(labelChanged ? ['label'] : []),
        ...(scopesChanged ? ['scopes'] : []),
        ...(listChanged ? ['ip_allow_list'] : []),
      ],
      accountId,
    });
    return presentApiKey(row, await loadScopesOfKeys(tx, [key.id]));
  });
}
