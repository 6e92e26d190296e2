import { forbidden } from '@/lib/shared/errors';
import type { DbOrTx } from '@/lib/db/client';
import { billingPeriodOf, countReceptions } from '@/lib/core/sub-accounts/internal/billing-period';

type CappedAccount = { id: string; monthlyCredit: number };

/**
 * `monthly_credit` (set by a parent on its sub account; 0 means no cap): messages accepted in the
 * UTC calendar month, counted from the reception counters, plus this request's must stay within it.
 * A request that would cross the cap is refused whole. Concurrent requests can each pass the check
 * at once, so the cap can be exceeded by the requests in flight; it is a budget, not a lock.
 */
export async function assertWithinMonthlyCredit(
  db: DbOrTx,
  account: CappedAccount,
  count: number,
  now: Date,
): Promise<void> {
  const refusal = await monthlyCreditRefusal(db, account, count, now);
  if (refusal) throw forbidden(refusal);
}

/** Why `count` more messages would cross the cap, or null when they fit (for callers that do not throw). */
export async function monthlyCreditRefusal(
  db: DbOrTx,
  account: CappedAccount,
  count: number,
  now: Date,
): Promise<string | null> {
  if (account.monthlyCredit <= 0 || count <= 0) return null;
  const accepted = (await countReceptions(db, [account.id], billingPeriodOf(now))).get(account.id) ?? 0;
  if (accepted + count <= account.monthlyCredit) return null;
  const left = Math.max(0, account.monthlyCredit - accepted);
  return `monthly_credit reached: this account may send ${account.monthlyCredit} messages per calendar month (UTC) and has sent ${accepted}; ${left} left, this request has ${count}`;
}
