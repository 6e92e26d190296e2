import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { accounts, messages } from '@/lib/db/schema';
import type { ClaimedMessage } from './claim-due-messages';

/** How long held mail waits before the next look at its account: mail resumes this soon after an unsuspend. */
export const HOLD_MS = 5 * 60_000;

/**
 * Mail of an account that may not send now (suspended, its partner suspended, or deleted) stays in
 * the queue instead of going out: its lease is given back and it is due again after HOLD_MS, with no
 * attempt counted. Checked after the claim (one primary-key read of the batch's accounts) rather than
 * in it, so the claim query stays as it is. Expired mail is not held: the pipeline fails it as usual.
 * Unsafe: it releases messages of any account; only the delivery loop calls it, on its own claims.
 */
export async function unsafeHoldUnsendableMessages(
  db: Db,
  claimed: ClaimedMessage[],
  options: { workerId: string; now: Date },
): Promise<ClaimedMessage[]> {
  if (claimed.length === 0) return claimed;
  const accountIds = [...new Set(claimed.map((message) => message.accountId))];
  const rows = await db
    .select({ id: accounts.id, status: accounts.status })
    .from(accounts)
    .where(inArray(accounts.id, accountIds));
  const blocked = new Set(rows.filter((row) => row.status !== 'active').map((row) => row.id));
  if (blocked.size === 0) return claimed;
  const held = new Set(
    claimed
      .filter((message) => blocked.has(message.accountId) && options.now < message.expiresAt)
      .map((message) => message.id),
  );
  if (held.size === 0) return claimed;
  await db
    .update(messages)
    .set({ leaseUntil: null, lockedBy: null, nextAttemptAt: new Date(options.now.getTime() + HOLD_MS) })
    .where(and(inArray(messages.id, [...held]), eq(messages.lockedBy, options.workerId)));
  return claimed.filter((message) => !held.has(message.id));
}
