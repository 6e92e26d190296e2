import { forbidden } from '@/lib/shared/errors';
import type { Services } from '@/lib/core/context';
import { notifyPeople } from '@/lib/core/notifications/notify-people';
import type { DbOrTx } from '@/lib/db/client';
import { billingPeriodOf, countReceptions } from '@/lib/core/sub-accounts/internal/billing-period';

type CappedAccount = { id: string; name: string; monthlyCredit: number };
type CapNotifier = Pick<Services, 'config' | 'logger' | 'now'> & { requestId?: string };

/**
 * `monthly_credit` (set by a parent on its sub account; 0 means no cap): messages accepted in the
 * UTC calendar month, counted from the reception counters, plus this request's must stay within it.
 * A request that would cross the cap is refused whole. Concurrent requests can each pass the check
 * at once, so the cap can be exceeded by the requests in flight; it is a budget, not a lock.
 * With `notify` (a `db` that commits though the request fails), a refusal mails the partner's people.
 */
export async function assertWithinMonthlyCredit(
  db: DbOrTx,
  account: CappedAccount,
  count: number,
  now: Date,
  notify?: CapNotifier,
): Promise<void> {
  const refusal = await monthlyCreditRefusal(db, account, count, now);
  if (!refusal) return;
  if (notify) await notifyCapReached(notify, db, account, refusal);
  throw forbidden(refusal);
}

/** Tells the partner (who set the cap) that the sub account's sends are being refused. */
export async function notifyCapReached(notify: CapNotifier, db: DbOrTx, account: CappedAccount, refusal: string) {
  await notifyPeople(notify, db, {
    kind: 'sub_account_cap_reached',
    accountId: account.id,
    resource: { id: account.id, name: account.name },
    detail: refusal,
    requestId: notify.requestId,
  });
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
