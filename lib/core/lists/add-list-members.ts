import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { hasPostgresCode } from '@/lib/core/contacts/internal/postgres-error';
import { defineVerb } from '@/lib/core/verb';
import { listMemberships } from '@/lib/db/schema';
import { conflict, notFound } from '@/lib/shared/errors';
import { presentMembership } from './internal/present';
import { getListInAccount } from './internal/queries';
import { resolveContactIds } from './internal/resolve-contacts';
import { addListMembersSchema, listPathSchema } from './schemas';

/**
 * Adds one contact (`contact`, answered with its membership) or up to 1,000 (`contacts`, answered
 * with a list of memberships) in one statement. New memberships get `subscription_status` or
 * `confirmed` (R8). An existing member keeps its status unless one is given; giving one to a
 * `complained` member is 409 for the whole request (R9). Any unknown contact is 404 and adds none.
 */
export const addListMembers = defineVerb({
  scope: 'lists:write',
  input: addListMembersSchema.extend(listPathSchema.shape),
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const accountId = principal.targetAccountId;
    const list = await getListInAccount(db, accountId, input.list_id);
    const references = input.contact !== undefined ? [input.contact] : [...new Set(input.contacts)];
    const contactIds = await resolveContactIds(db, accountId, references);
    const at = now();
    const status = input.subscription_status;
    const rows = await db.transaction(async (tx) => {
      const frozenCondition = and(
        eq(listMemberships.listId, list.id),
        inArray(listMemberships.contactId, contactIds),
        eq(listMemberships.subscriptionStatus, 'complained'),
      );
      if (status !== undefined) {
        const frozen = await tx
          .select({ contactId: listMemberships.contactId })
          .from(listMemberships)
          .where(frozenCondition);
        if (frozen.length > 0)
          throw conflict(
            `complained memberships are frozen (R9): ${frozen.length} of these contacts complained about mail to this list`,
            'subscription_status',
          );
      }
      // Sorted ids: parallel requests over the same contacts lock rows in one order and cannot deadlock.
      const insert = tx.insert(listMemberships).values(
        contactIds.map((contactId) => ({
          listId: list.id,
          contactId,
          accountId,
          subscriptionStatus: status ?? 'confirmed',
          createdAt: at,
          updatedAt: at,
        })),
      );
      try {
        if (status === undefined) await insert.onConflictDoNothing();
        else {
          await insert.onConflictDoUpdate({
            target: [listMemberships.listId, listMemberships.contactId],
            set: { subscriptionStatus: sql`excluded.subscription_status`, updatedAt: sql`excluded.updated_at` },
            setWhere: sql`${listMemberships.subscriptionStatus} <> 'complained' and ${listMemberships.subscriptionStatus} <> excluded.subscription_status`,
          });
        }
      } catch (error) {
        // A contact deleted between the lookup and the insert.
        if (hasPostgresCode(error, '23503')) throw notFound('contact not found');
        throw error;
      }
      await recordAuditEvent(tx, ctx, { action: 'list_member.add', resource: { type: 'list', id: list.id } });
      return tx
        .select()
        .from(listMemberships)
        .where(and(eq(listMemberships.listId, list.id), inArray(listMemberships.contactId, contactIds)));
    });
    const memberships = rows.sort((a, b) => (a.contactId < b.contactId ? -1 : 1)).map((row) => presentMembership(row));
    if (input.contact !== undefined) return memberships[0]!;
    return { object: 'list' as const, data: memberships };
  },
});
