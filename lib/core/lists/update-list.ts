import { givenFields } from '@/lib/core/audit/given-fields';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq, isNull } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { contactLists } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import { presentList } from './internal/present';
import { loadMemberCounts } from './internal/queries';
import { listPathSchema, updateListSchema } from './schemas';

/** Renames a list or changes its description or public name; omitted fields stay. A deleted list is 404. */
export const updateList = defineVerb({
  scope: 'lists:write',
  input: updateListSchema.extend(listPathSchema.shape),
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    if (!isUuid(input.list_id)) throw notFound('list not found');
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(contactLists)
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.description !== undefined ? { description: input.description || null } : {}),
          ...(input.public_name !== undefined ? { publicName: input.public_name || null } : {}),
          updatedAt: now(),
        })
        .where(
          and(
            eq(contactLists.accountId, principal.targetAccountId),
            eq(contactLists.id, input.list_id.toLowerCase()),
            isNull(contactLists.deletedAt),
          ),
        )
        .returning();
      if (!changed) throw notFound('list not found');
      await recordAuditEvent(tx, ctx, {
        action: 'list.update',
        resource: { type: 'list', id: changed.id },
        changes: givenFields(input, ['list_id']),
      });
      return changed;
    });
    return presentList(row, (await loadMemberCounts(db, [row.id])).get(row.id));
  },
});
