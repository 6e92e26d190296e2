import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq, notInArray, sql, type SQL } from 'drizzle-orm';
import { getDomainInAccount } from '@/lib/core/domains/internal/queries';
import { defineVerb } from '@/lib/core/verb';
import { suppressions } from '@/lib/db/schema';
import { wipeSuppressionsQuerySchema } from './schemas';

/**
 * Deletes every suppression of the account, or of one of its domains, except protected ones (the
 * spec's words for `suppressions:wipe`) and complaints: a person who marked mail as spam must not
 * be mailed again because someone cleared the list. Deleting that one address still removes it.
 */
const KEPT_KINDS = ['protected', 'complaint'];

export const wipeSuppressions = defineVerb({
  scope: 'suppressions:wipe',
  input: wipeSuppressionsQuerySchema,
  async run(ctx, query) {
    const { db, principal, now } = ctx;
    const accountId = principal.targetAccountId;
    const conditions: SQL[] = [eq(suppressions.accountId, accountId), notInArray(suppressions.kind, KEPT_KINDS)];
    const domain = query.domain !== undefined ? (await getDomainInAccount(db, accountId, query.domain)).domain : null;
    if (domain !== null) conditions.push(eq(suppressions.domain, domain));
    const at = now();
    const wipe = db
      .delete(suppressions)
      .where(and(...conditions))
      .returning({ expiresAt: suppressions.expiresAt });
    const result = await db.transaction(async (tx) => {
      // Expired rows go too, but only those still in force count.
      const wiped = await tx.execute(
        sql`with deleted as (${wipe.getSQL()}) select count(*) filter (where expires_at > ${at.toISOString()}::timestamptz)::int as count from deleted`,
      );
      // A wipe is recorded even when it found nothing: someone asked for every suppression to go.
      await recordAuditEvent(tx, ctx, { action: 'suppression.wipe', resource: { type: 'suppression', id: domain } });
      return wiped;
    });
    const count = Number((result as unknown as { rows: { count: number }[] }).rows[0]?.count ?? 0);
    return {
      message: `${count} ${count === 1 ? 'suppression' : 'suppressions'} deleted${domain ? ` for ${domain}` : ''}`,
    };
  },
});
