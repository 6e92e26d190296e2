import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { contactLists } from '@/lib/db/schema';
import { presentList } from './internal/present';
import { createListSchema } from './schemas';

/** A new, empty list. Names need not be unique: lists are told apart by id, as in most marketing tools. */
export const createList = defineVerb({
  scope: 'lists:write',
  input: createListSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const at = now();
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .insert(contactLists)
        .values({
          accountId: principal.targetAccountId,
          name: input.name,
          description: input.description || null,
          publicName: input.public_name || null,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      await recordAuditEvent(tx, ctx, { action: 'list.create', resource: { type: 'list', id: changed!.id } });
      return changed;
    });
    return presentList(row!);
  },
});
