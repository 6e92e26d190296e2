import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { memberships } from '@/lib/db/schema';
import { recordAuditEvent, type AuditActor, type AuditEventInput, type AuditSource } from './record-audit-event';

/**
 * A change to a person (their sign-in, their two-factor settings) belongs to no one account: one
 * event in each account they are a member of, so that every team they belong to sees it. The actor
 * is the person unless said otherwise.
 */
export async function recordPersonEvent(
  tx: DbOrTx,
  source: AuditSource,
  user: { id: string; email: string },
  event: Omit<AuditEventInput, 'accountId' | 'actor'> & { actor?: AuditActor },
): Promise<void> {
  const rows = await tx
    .select({ accountId: memberships.accountId })
    .from(memberships)
    .where(eq(memberships.userId, user.id));
  const actor = event.actor ?? { type: 'user' as const, id: user.id, label: user.email };
  for (const row of rows) await recordAuditEvent(tx, source, { ...event, actor, accountId: row.accountId });
}
