import { and, eq, gt, gte, lte, type SQL } from 'drizzle-orm';
import { getDomainInAccount } from '@/lib/core/domains/internal/queries';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { suppressions } from '@/lib/db/schema';
import { invalidInput } from '@/lib/shared/errors';
import { presentSuppression } from './internal/present';
import { listSuppressionsQuerySchema } from './schemas';

/** The account's suppressions in force (expired ones are gone), newest first, with the contract's filters. */
export const listSuppressions = defineVerb({
  scope: 'suppressions:read',
  input: listSuppressionsQuerySchema,
  async run({ db, principal, now }, query) {
    const accountId = principal.targetAccountId;
    const conditions: SQL[] = [eq(suppressions.accountId, accountId), gt(suppressions.expiresAt, now())];
    if (query.domain !== undefined)
      conditions.push(eq(suppressions.domain, (await getDomainInAccount(db, accountId, query.domain)).domain));
    if (query.email !== undefined) {
      const email = normalizeEmailAddress(query.email);
      if (!email.ok) throw invalidInput(`email: ${email.reason}`, 'email');
      conditions.push(eq(suppressions.email, email.email));
    }
    if (query.from_time) conditions.push(gte(suppressions.createdAt, new Date(query.from_time)));
    if (query.to_time) conditions.push(lte(suppressions.createdAt, new Date(query.to_time)));
    return paginate(db, {
      table: suppressions,
      idColumn: suppressions.id,
      where: and(...conditions),
      query,
      map: (rows: (typeof suppressions.$inferSelect)[]) => rows.map(presentSuppression),
    });
  },
});
