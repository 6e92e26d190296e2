import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal } from '@/lib/auth/principal';
import { setAccountTier } from '@/lib/core/accounts/set-account-tier';
import { createSubAccount } from '@/lib/core/sub-accounts/create-sub-account';
import { deleteSubAccount } from '@/lib/core/sub-accounts/delete-sub-account';
import { getSubAccountUsageHistory } from '@/lib/core/sub-accounts/get-sub-account-usage-history';
import { statsDaily } from '@/lib/db/schema';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/** Months are UTC calendar months ending with the current one (the clock says 2026-11-22). */
let services: TestServices;
let partnerId: string;
let childId: string;

beforeAll(async () => {
  services = await memoryServices();
  partnerId = (await newAccount(services, 'History partner')).accountId;
  await setAccountTier(as(services, systemPrincipal('')), { account_id: partnerId, tier: 'partner' });
  childId = (
    await createSubAccount(as(services, systemPrincipal(partnerId)), {
      name: 'History child',
      website: 'h.example.com',
      monthly_credit: 500,
    })
  ).id;
  const row = (day: string, reception: number, delivered: number, bounced: number, recipientDomain = 'x.example') => ({
    accountId: childId,
    day: new Date(day),
    senderDomain: 'h.example.com',
    recipientDomain,
    reception,
    delivered,
    bounced,
  });
  await services.db.insert(statsDaily).values([
    row('2026-11-01T00:00:00Z', 10, 8, 1),
    row('2026-11-21T00:00:00Z', 5, 5, 0, 'y.example'),
    row('2026-10-31T00:00:00Z', 7, 6, 1),
    row('2025-12-01T00:00:00Z', 3, 3, 0),
    // Thirteen months back: outside the default year.
    row('2025-11-30T00:00:00Z', 99, 99, 0),
    { ...row('2026-11-02T00:00:00Z', 1000, 0, 0), accountId: partnerId },
  ]);
}, 60_000);
afterAll(async () => services.close());

describe('getSubAccountUsageHistory', () => {
  it('counts each UTC month of the last year for the child alone, oldest first, with its cap', async () => {
    const history = await getSubAccountUsageHistory(as(services, systemPrincipal(partnerId)), {
      sub_account_id: childId,
      months: 12,
    });
    expect(history.monthly_credit).toBe(500);
    expect(history.data).toHaveLength(12);
    expect(history.data[0]).toEqual({
      month: '2025-12',
      from_timestamp: '2025-12-01T00:00:00.000Z',
      to_timestamp: '2026-01-01T00:00:00.000Z',
      reception_count: 3,
      delivered_count: 3,
      bounced_count: 0,
    });
    expect(history.data.at(-2)).toMatchObject({
      month: '2026-10',
      reception_count: 7,
      delivered_count: 6,
      bounced_count: 1,
    });
    expect(history.data.at(-1)).toMatchObject({
      month: '2026-11',
      reception_count: 15,
      delivered_count: 13,
      bounced_count: 1,
    });
    expect(history.data.slice(1, -2).every((month) => month.reception_count === 0)).toBe(true);
  });

  it("is the parent's only: another account's id is not found, and a deleted child keeps its history", async () => {
    const other = (await newAccount(services, 'Other partner')).accountId;
    await setAccountTier(as(services, systemPrincipal('')), { account_id: other, tier: 'partner' });
    await expect(
      getSubAccountUsageHistory(as(services, systemPrincipal(other)), { sub_account_id: childId, months: 3 }),
    ).rejects.toThrow(/Sub account not found/);
    await deleteSubAccount(as(services, systemPrincipal(partnerId)), { sub_account_id: childId });
    const history = await getSubAccountUsageHistory(as(services, systemPrincipal(partnerId)), {
      sub_account_id: childId,
      months: 1,
    });
    expect(history.data).toEqual([expect.objectContaining({ month: '2026-11', reception_count: 15 })]);
  });
});
