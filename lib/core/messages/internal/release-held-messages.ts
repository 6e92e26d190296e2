import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { accounts, messages } from '@/lib/db/schema';
import { signalWork } from '@/lib/core/shared/work-signal';

/**
 * Mail the delivery loop held while its account could not send (lib/mail/hold-unsendable-messages.ts)
 * is due again at once when the account becomes active, instead of at the end of the hold: queued
 * mail due later can only be held mail (scheduled sends have their own status, retries are
 * `deferred`). Covers the account and the sub accounts that became active with it.
 */
export async function releaseHeldMessages(db: Db, accountId: string, now: Date): Promise<void> {
  const active = db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.status, 'active'), isNull(accounts.deletedAt), eq(accounts.id, accountId)));
  const activeChildren = db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.status, 'active'), isNull(accounts.deletedAt), eq(accounts.parentAccountId, accountId)));
  const released = await db
    .update(messages)
    .set({ nextAttemptAt: now })
    .where(
      and(
        eq(messages.status, 'queued'),
        gt(messages.nextAttemptAt, now),
        isNull(messages.lockedBy),
        inArray(messages.accountId, active.union(activeChildren)),
      ),
    )
    .returning({ id: messages.id });
  if (released.length) signalWork('messages');
}
