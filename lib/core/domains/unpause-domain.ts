import { and, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { domains } from '@/lib/db/schema';
import { presentDomain } from './present';
import { getDomainInAccount, loadLiveKeys } from './queries';
import { domainPathSchema } from './schemas';

/** Mailstead extension: sending resumes, and the bounce-rate window starts again from now. */
export const unpauseDomain = defineVerb({
  scope: 'domains:write',
  input: domainPathSchema,
  async run({ db, principal, config, now }, input) {
    const row = await getDomainInAccount(db, principal.targetAccountId, input.domain);
    const at = now();
    const [updated] = await db
      .update(domains)
      .set({ isPaused: false, pausedAt: null, pauseReason: null, pauseWindowStartedAt: at, updatedAt: at })
      .where(and(eq(domains.accountId, principal.targetAccountId), eq(domains.id, row.id)))
      .returning();
    return presentDomain(updated, await loadLiveKeys(db, [row.id]), config);
  },
});
