import { and, eq, isNull } from 'drizzle-orm';
import { pageQuerySchema, paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { accounts } from '@/lib/db/schema';
import { getPartnerAccount, presentSubAccounts } from './internal/queries';

/** Newest first; soft-deleted sub accounts are gone from the list (their usage is not). */
export const listSubAccounts = defineVerb({
  scope: 'sub-accounts:read',
  input: pageQuerySchema,
  async run({ db, principal }, query) {
    const parent = await getPartnerAccount(db, principal.targetAccountId);
    return paginate(db, {
      table: accounts,
      idColumn: accounts.id,
      where: and(eq(accounts.parentAccountId, parent.id), isNull(accounts.deletedAt)),
      query,
      map: (rows: (typeof accounts.$inferSelect)[]) => presentSubAccounts(db, rows),
    });
  },
});
