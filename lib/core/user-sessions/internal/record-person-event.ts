import { eq } from 'drizzle-orm';
import { recordAuditEvent, type AuditEventInput, type AuditSource } from '@/lib/core/audit/record-audit-event';
import type { DbOrTx } from '@/lib/db/client';
import { memberships } from '@/lib/db/schema';

/**
 * A change to a person rather than to an account (their password, their sessions): recorded once
 * in every account they are a member of, so that each account's administrators see it.
 */
export async function recordPersonEvent(
  tx: DbOrTx,
  source: AuditSource,
  userId: string,
  event: Omit<AuditEventInput, 'accountId'>,
): Promise<void> {
  const rows = await tx
    .select({ accountId: memberships.accountId })
    .from(memberships)
    .where(eq(memberships.userId, userId));
  for (const row of rows) await recordAuditEvent(tx, source, { ...event, accountId: row.accountId });
}
