import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq, gt, ne, type SQL } from 'drizzle-orm';
import { normalizeDomainName } from '@/lib/core/domains/internal/normalize-domain-name';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import { defineVerb } from '@/lib/core/verb';
import { suppressions } from '@/lib/db/schema';
import { AppError, invalidInput, notFound } from '@/lib/shared/errors';
import { deleteSuppressionQuerySchema } from './schemas';

/**
 * Removes the suppressions of one address: all of them, or the one of `domain`. Protected entries
 * stay (the operator put them there); asking for nothing but those is a 403, for nothing at all a 404.
 */
export const deleteSuppression = defineVerb({
  scope: 'suppressions:delete',
  input: deleteSuppressionQuerySchema,
  async run(ctx, query) {
    const { db, principal, now } = ctx;
    const email = normalizeEmailAddress(query.email);
    if (!email.ok) throw invalidInput(`email: ${email.reason}`, 'email');
    const conditions: SQL[] = [
      eq(suppressions.accountId, principal.targetAccountId),
      eq(suppressions.email, email.email),
    ];
    if (query.domain !== undefined) {
      const name = normalizeDomainName(query.domain);
      if (!name.ok) throw notFound('suppression not found');
      conditions.push(eq(suppressions.domain, name.domain));
    }
    const at = now();
    const count = await db.transaction(async (tx) => {
      const deleted = await tx
        .delete(suppressions)
        .where(and(...conditions, ne(suppressions.kind, 'protected')))
        .returning({ expiresAt: suppressions.expiresAt });
      const inForce = deleted.filter((row) => row.expiresAt > at).length;
      if (inForce > 0)
        await recordAuditEvent(tx, ctx, {
          action: 'suppression.delete',
          resource: { type: 'suppression', id: email.email },
        });
      return inForce;
    });
    if (count === 0) {
      const [kept] = await db
        .select({ id: suppressions.id })
        .from(suppressions)
        .where(and(...conditions, gt(suppressions.expiresAt, at)))
        .limit(1);
      if (kept) throw new AppError('forbidden', 'protected suppressions cannot be deleted');
      throw notFound('suppression not found');
    }
    return {
      message:
        count === 1 ? `suppression of ${email.email} deleted` : `${count} suppressions of ${email.email} deleted`,
    };
  },
});
