import { eq } from 'drizzle-orm';
import { pageQuerySchema, paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { apiKeys } from '@/lib/db/schema';
import { presentApiKey } from './present';
import { loadScopesOfKeys } from './queries';

export const listApiKeys = defineVerb({
  scope: 'api-keys:read',
  input: pageQuerySchema,
  async run({ db, principal }, query) {
    return paginate(db, {
      table: apiKeys,
      idColumn: apiKeys.id,
      where: eq(apiKeys.accountId, principal.targetAccountId),
      query,
      map: async (rows: (typeof apiKeys.$inferSelect)[]) => {
        const scopes = await loadScopesOfKeys(db, rows.map((row) => row.id));
        return rows.map((row) => presentApiKey(row, scopes));
      },
    });
  },
});
