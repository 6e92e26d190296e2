import { and, eq, isNull } from 'drizzle-orm';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { domains } from '@/lib/db/schema';
import { presentDomain } from './internal/present';
import { keysOf, loadLiveKeys } from './internal/queries';
import { listDomainsQuerySchema } from './schemas';

export const listDomains = defineVerb({
  scope: 'domains:read',
  input: listDomainsQuerySchema,
  async run({ db, principal, config }, query) {
    return paginate(db, {
      table: domains,
      idColumn: domains.id,
      where: and(
        eq(domains.accountId, principal.targetAccountId),
        isNull(domains.deletedAt),
        query.dns_valid === undefined ? undefined : eq(domains.dnsValid, query.dns_valid === 'true'),
      ),
      query,
      map: async (rows: (typeof domains.$inferSelect)[]) => {
        const keys = await loadLiveKeys(
          db,
          rows.map((row) => row.id),
        );
        return rows.map((row) => presentDomain(row, keysOf(keys, row.id), config));
      },
    });
  },
});
