import { and, eq } from 'drizzle-orm';
import { conflict } from '@/lib/shared/errors';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { apiKeyScopes, domains } from '@/lib/db/schema';
import { normalizeDomainName } from './internal/normalize-domain-name';
import { getDomainInAccount } from './internal/queries';
import { domainPathSchema } from './schemas';

/**
 * Soft delete: the domain leaves the API and every key scope naming it goes, while its messages and
 * events keep pointing at the row. A paused domain cannot be deleted.
 */
export const deleteDomain = defineVerb({
  scope: 'domains:delete:{domain}',
  input: domainPathSchema,
  domains: (_ctx, input) => {
    const name = normalizeDomainName(input.domain);
    return name.ok ? [name.domain] : [input.domain];
  },
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const row = await getDomainInAccount(db, principal.targetAccountId, input.domain);
    if (row.isPaused) throw conflict('the domain is paused and cannot be deleted; unpause it first');
    await db.transaction(async (tx) => {
      await tx
        .update(domains)
        .set({ deletedAt: now(), updatedAt: now() })
        .where(and(eq(domains.accountId, principal.targetAccountId), eq(domains.id, row.id)));
      await tx.delete(apiKeyScopes).where(eq(apiKeyScopes.domainId, row.id));
      await recordAuditEvent(tx, ctx, { action: 'domain.delete', resource: { type: 'domain', id: row.domain } });
    });
    return { message: `domain ${row.domain} deleted` };
  },
});
