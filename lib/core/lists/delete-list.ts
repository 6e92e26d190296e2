import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq, isNull } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { contactLists } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import { listPathSchema } from './schemas';

/**
 * Deletes a list for every request (it is 404 from now on) but keeps its memberships, so that an
 * unsubscribe recorded there survives (R10); the contact's own lists still show them.
 */
export const deleteList = defineVerb({
  scope: 'lists:delete',
  input: listPathSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    if (!isUuid(input.list_id)) throw notFound('list not found');
    const at = now();
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(contactLists)
        .set({ deletedAt: at, updatedAt: at })
        .where(
          and(
            eq(contactLists.accountId, principal.targetAccountId),
            eq(contactLists.id, input.list_id.toLowerCase()),
            isNull(contactLists.deletedAt),
          ),
        )
        .returning({ id: contactLists.id, name: contactLists.name });
      if (!changed) throw notFound('list not found');
      await recordAuditEvent(tx, ctx, { action: 'list.delete', resource: { type: 'list', id: changed.id } });
      return changed;
    });
    return { message: `list ${row.id} (${row.name}) deleted` };
  },
});
