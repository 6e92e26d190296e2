import { and, eq } from 'drizzle-orm';
import type { CoreConfig } from '@/lib/core/config';
import { defineVerb } from '@/lib/core/verb';
import type { DbOrTx } from '@/lib/db/client';
import { domains } from '@/lib/db/schema';
import { presentDomain } from './internal/present';
import { getDomainInAccount, loadLiveKeys } from './internal/queries';
import { domainPathSchema } from './schemas';

/** Mailstead extension: sending resumes, and the bounce-rate window starts again from now. */
export const unpauseDomain = defineVerb({
  scope: 'domains:write',
  input: domainPathSchema,
  async run({ db, principal, config, now }, input) {
    return unpauseDomainInAccount(db, config, principal.targetAccountId, input.domain, now());
  },
});

/** Shared with a parent unpausing its sub account's domain (`sub-accounts:suspend`). */
export async function unpauseDomainInAccount(
  db: DbOrTx,
  config: CoreConfig,
  accountId: string,
  domainName: string,
  at: Date,
) {
  const row = await getDomainInAccount(db, accountId, domainName);
  const [updated] = await db
    .update(domains)
    .set({ isPaused: false, pausedAt: null, pauseReason: null, pauseWindowStartedAt: at, updatedAt: at })
    .where(and(eq(domains.accountId, accountId), eq(domains.id, row.id)))
    .returning();
  return presentDomain(updated, await loadLiveKeys(db, [row.id]), config);
}
