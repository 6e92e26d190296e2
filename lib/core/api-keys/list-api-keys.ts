import { eq } from 'drizzle-orm';
import { pageQuerySchema, paginate, type PageQuery } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import type { DbOrTx } from '@/lib/db/client';
import { apiKeys } from '@/lib/db/schema';
import { presentApiKey } from './internal/present';
import { loadScopesOfKeys } from './internal/queries';

export const listApiKeys = defineVerb({
  scope: 'api-keys:read',
  input: pageQuerySchema,
  async run({ db, principal }, query) {
    return listApiKeysOfAccount(db, principal.targetAccountId, query);
  },
});

/** Shared with the sub-account key list, where `accountId` is the child's. */
export async function listApiKeysOfAccount(db: DbOrTx, accountId: string, query: PageQuery) {
  return paginate(db, {
    table: apiKeys,
    idColumn: apiKeys.id,
    where: eq(apiKeys.accountId, accountId),
    query,
    map: async (rows: (typeof apiKeys.$inferSelect)[]) => {
      const scopes = await loadScopesOfKeys(
        db,
        rows.map((row) => row.id),
      );
      return rows.map((row) => presentApiKey(row, scopes));
    },
  });
}
