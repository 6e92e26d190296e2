import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { memberships } from '@/lib/db/schema';
import {
  actorOf,
  recordAuditEvent,
  type AuditActor,
  type AuditEventInput,
  type AuditSource,
} from './record-audit-event';

/**
 * A change to a person (their sign-in, password, sessions, two-factor settings) belongs to no one
 * account: one event in each account they are a member of, so that every team they belong to sees
 * it. The actor is the person (from their session, or before any session exists), the operator or a
 * job when one of those made the change, or whoever `event.actor` names.
 */
export async function recordPersonEvent(
  tx: DbOrTx,
  source: AuditSource,
  user: { id: string; email?: string },
  event: Omit<AuditEventInput, 'accountId' | 'actor'> & { actor?: AuditActor },
): Promise<void> {
  const rows = await tx
    .select({ accountId: memberships.accountId })
    .from(memberships)
    .where(eq(memberships.userId, user.id));
  const { principal } = source;
  const isThePerson = principal.kind === 'session' || principal.kind === 'anonymous';
  const actor =
    event.actor ??
    (isThePerson
      ? { type: 'user' as const, id: user.id, label: user.email ?? principal.label ?? null }
      : actorOf(principal));
  for (const row of rows) await recordAuditEvent(tx, source, { ...event, actor, accountId: row.accountId });
}
