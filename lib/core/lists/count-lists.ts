import { and, count, eq, isNull } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { contactLists } from '@/lib/db/schema';

/** The total the Lists page heads with ("12 lists"): the account's lists that are not deleted. */
export const countLists = defineVerb({
  scope: 'lists:read',
  input: z.object({}),
  async run({ db, principal }) {
    const [totals] = await db
      .select({ total: count() })
      .from(contactLists)
      .where(and(eq(contactLists.accountId, principal.targetAccountId), isNull(contactLists.deletedAt)));
    return { object: 'list_totals' as const, lists: Number(totals.total) };
  },
});

export type ListTotals = Awaited<ReturnType<typeof countLists>>;
