import { defineVerb } from '@/lib/core/verb';
import { contactLists } from '@/lib/db/schema';
import { presentList } from './internal/present';
import { createListSchema } from './schemas';

/** A new, empty list. Names need not be unique: lists are told apart by id, as in most marketing tools. */
export const createList = defineVerb({
  scope: 'lists:write',
  input: createListSchema,
  async run({ db, principal, now }, input) {
    const at = now();
    const [row] = await db
      .insert(contactLists)
      .values({
        accountId: principal.targetAccountId,
        name: input.name,
        description: input.description || null,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    return presentList(row!);
  },
});
