import { afterAll, beforeAll } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createDomain } from '@/lib/core/domains/create-domain';
import { Rollup, type Counter } from '@/lib/core/statistics/rollup';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/**
 * What the statistics-report suites share: an account with two verified domains (acme.example,
 * beta.example) on an in-memory PGlite of the suite's own, and `counted`, which writes changes through
 * the Rollup class that acceptance, outcomes and engagement use. A suite calls `useStatisticsServices()`
 * once at its top level.
 */
export let services: TestServices;
export let principal: Principal;
export let accountId: string;

export function useStatisticsServices() {
  beforeAll(async () => {
    services = await memoryServices();
    ({ principal, accountId } = await newAccount(services));
    for (const domain of ['acme.example', 'beta.example']) {
      const created = await createDomain(as(services, principal), { domain });
      services.dns.publishRecords(created.dns_records);
      await checkDomainDns(as(services, principal), { domain });
    }
  }, 60_000);

  afterAll(() => services?.close());
}

export type Change = {
  at: string;
  counter: Counter;
  sender?: string;
  recipient?: string;
  tags?: string[];
  deliveryMs?: number;
  bounce?: string;
  account?: string;
};

export async function counted(changes: Change[]) {
  const rollup = new Rollup();
  for (const change of changes) {
    const facts = {
      accountId: change.account ?? accountId,
      at: new Date(change.at),
      senderDomain: change.sender ?? 'acme.example',
      recipientDomain: change.recipient ?? 'gmail.example',
      tags: change.tags ?? [],
    };
    rollup.count(facts, change.counter, change.deliveryMs);
    if (change.bounce) rollup.countBounce(facts, change.bounce);
  }
  await rollup.flush(services.db);
}

// November 2026 data; the clock stays at 2026-11-22T10:00Z, so these windows are all in the past.
export const NOV = { from_time: '2026-11-01T00:00:00Z', to_time: '2026-11-08T00:00:00Z' };
