import { and, eq } from 'drizzle-orm';
import type { CoreConfig } from '@/lib/core/config';
import { recordAuditEvent, type AuditSource } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import type { DbOrTx } from '@/lib/db/client';
import { domains } from '@/lib/db/schema';
import { presentDomain } from './internal/present';
import { getDomainInAccount, loadLiveKeys } from './internal/queries';
import { domainPathSchema } from './schemas';

/** Mailstead extension: sending resumes, and the bounce-rate window starts again from now. */
export const unpauseDomain = defineVerb({
  scope: 'domains:write',
  input: domainPathSchema,
  async run(ctx, input) {
    return unpauseDomainInAccount(ctx.db, ctx, ctx.config, ctx.principal.targetAccountId, input.domain, ctx.now());
  },
});

/** Shared with a parent unpausing its sub account's domain (`sub-accounts:suspend`). */
export async function unpauseDomainInAccount(
  db: DbOrTx,
  source: AuditSource,
  config: CoreConfig,
  accountId: string,
  domainName: string,
  at: Date,
) {
  const row = await getDomainInAccount(db, accountId, domainName);
  const updated = await db.transaction(async (tx) => {
    const [unpaused] = await tx
      .update(domains)
      .set({ isPaused: false, pausedAt: null, pauseReason: null, pauseWindowStartedAt: at, updatedAt: at })
      .where(and(eq(domains.accountId, accountId), eq(domains.id, row.id)))
      .returning();
    await recordAuditEvent(tx, source, {
      action: 'domain.unpause',
      resource: { type: 'domain', id: row.domain },
      accountId,
    });
    return unpaused;
  });
  return presentDomain(updated, await loadLiveKeys(db, [row.id]), config);
}
