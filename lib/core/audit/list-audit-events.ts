import { and, eq, gte, inArray, like, lt, type SQL } from 'drizzle-orm';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import type { DbOrTx } from '@/lib/db/client';
import { accounts, auditEvents } from '@/lib/db/schema';
import { invalidInput } from '@/lib/shared/errors';
import { listAuditEventsQuerySchema, type AuditEvent } from './schemas';

type AuditEventRow = typeof auditEvents.$inferSelect;

/**
 * The account's audit events, newest first. A partner sees its sub accounts' events with theirs,
 * each naming the child in `account_id`: the changes its keys and people make there are recorded there.
 */
export const listAuditEvents = defineVerb({
  scope: 'accounts:read',
  input: listAuditEventsQuerySchema,
  async run({ db, principal }, query) {
    if (query.from_time && query.to_time && Date.parse(query.from_time) >= Date.parse(query.to_time))
      throw invalidInput('from_time must be before to_time', 'from_time');
    const accountIds = await accountsShown(db, principal.targetAccountId);
    const conditions: (SQL | undefined)[] = [inArray(auditEvents.accountId, accountIds)];
    if (query.actor_type) conditions.push(eq(auditEvents.actorType, query.actor_type));
    if (query.actor_id) conditions.push(eq(auditEvents.actorId, query.actor_id));
    // A family is a prefix: its `_` (as in `api_key.*`) is escaped, or LIKE would read it as any character.
    if (query.action?.endsWith('.*'))
      conditions.push(like(auditEvents.action, `${query.action.slice(0, -1).replace(/[\\%_]/g, '\\$&')}%`));
    else if (query.action) conditions.push(eq(auditEvents.action, query.action));
    if (query.resource_type) conditions.push(eq(auditEvents.resourceType, query.resource_type));
    if (query.resource_id) conditions.push(eq(auditEvents.resourceId, query.resource_id));
    if (query.from_time) conditions.push(gte(auditEvents.occurredAt, new Date(query.from_time)));
    if (query.to_time) conditions.push(lt(auditEvents.occurredAt, new Date(query.to_time)));
    return paginate(db, {
      table: auditEvents,
      idColumn: auditEvents.id,
      where: and(...conditions),
      query,
      map: (rows: AuditEventRow[]) => rows.map(presentAuditEvent),
    });
  },
});

/** The account itself and, for a partner, its sub accounts (deleted ones too: their history stays readable). */
async function accountsShown(db: DbOrTx, accountId: string): Promise<string[]> {
  const children = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.parentAccountId, accountId));
  return [accountId, ...children.map((child) => child.id)];
}

export function presentAuditEvent(row: AuditEventRow): AuditEvent {
  return {
    object: 'audit_event',
    id: row.id,
    occurred_at: row.occurredAt.toISOString(),
    account_id: row.accountId,
    actor: { type: row.actorType as AuditEvent['actor']['type'], id: row.actorId, label: row.actorLabel },
    action: row.action,
    resource: { type: row.resourceType, id: row.resourceId },
    ip: row.ip,
    request_id: row.requestId,
    changes: row.changes,
  };
}
