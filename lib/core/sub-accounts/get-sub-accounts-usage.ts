import { and, eq, gte, isNull, or } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { accounts } from '@/lib/db/schema';
import { billingPeriodOf, countReceptions } from './internal/billing-period';
import { getPartnerAccount } from './internal/queries';

// A self-hosted instance sends no invoice: there is no pooled cost to share out, so every share is 0.
const CURRENCY = 'usd';
const NO_COST = 0;
const ALLOCATION_NOTE =
  "allocated_cost is a proportional share of the parent account's pooled invoice for the period, not what a sub account would pay on its own plan. This Mailstead instance issues no invoice, so every allocated_cost is 0.";

/**
 * The current billing period (the UTC calendar month): messages accepted by the parent, by each sub
 * account still in the list (suspended ones too), and by sub accounts deleted during the period as
 * one aggregate without names.
 */
export const getSubAccountsUsage = defineVerb({
  scope: 'sub-accounts:usage',
  input: z.object({}),
  async run({ db, principal, now }) {
    const parent = await getPartnerAccount(db, principal.targetAccountId);
    const period = billingPeriodOf(now());
    const children = await db
      .select({ id: accounts.id, name: accounts.name, deletedAt: accounts.deletedAt })
      .from(accounts)
      .where(
        and(
          eq(accounts.parentAccountId, parent.id),
          or(isNull(accounts.deletedAt), gte(accounts.deletedAt, period.start)),
        ),
      )
      .orderBy(accounts.id);
    const counts = await countReceptions(db, [parent.id, ...children.map((child) => child.id)], period);
    const countOf = (id: string) => counts.get(id) ?? 0;
    const total = countOf(parent.id) + children.reduce((sum, child) => sum + countOf(child.id), 0);
    const live = children.filter((child) => child.deletedAt === null);
    const removed = children
      .filter((child) => child.deletedAt !== null)
      .reduce((sum, child) => sum + countOf(child.id), 0);
    return {
      billing_period: { start: period.start.toISOString(), end: period.end.toISOString() },
      currency: CURRENCY,
      allocation_method: 'proportional' as const,
      allocation_note: ALLOCATION_NOTE,
      parent: {
        account_id: parent.id,
        name: parent.name,
        reception_count: countOf(parent.id),
        allocated_cost: NO_COST,
      },
      sub_accounts: live.map((child) => ({
        account_id: child.id,
        name: child.name,
        reception_count: countOf(child.id),
        allocated_cost: NO_COST,
      })),
      removed_sub_accounts: { reception_count: removed, allocated_cost: NO_COST },
      total: { reception_count: total, allocated_cost: NO_COST },
    };
  },
});
