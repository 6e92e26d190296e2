import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { accounts, domains, messages, users, warmupCounters } from '@/lib/db/schema';
import { unsafeClaimDueMessages } from '@/lib/mail/claim-due-messages';
import { unsafeHoldWarmupMessages } from '@/lib/mail/hold-warmup-messages';
import { SERVER_IP_COUNTER_ID } from '@/lib/core/domains/internal/warmup-plan';
import { WarmupGate } from '@/lib/mail/warmup-gate';
import { openMemoryDatabase, queuedMessage } from '../../support/memory-database';

/** A warming domain's excess per provider and UTC day stays queued for the next day, with the reason. */
describe('the warm-up gate and its holds (in-memory PGlite)', () => {
  let db: Db;
  let domain: typeof domains.$inferSelect;
  const now = new Date('2026-11-27T15:00:00Z');

  beforeAll(async () => {
    db = await openMemoryDatabase();
    const [owner] = await db.insert(users).values({ email: 'owner@warmup.example', passwordHash: 'x' }).returning();
    const [account] = await db.insert(accounts).values({ ownerId: owner.id, name: 'warmup' }).returning();
    [domain] = await db
      .insert(domains)
      .values({
        accountId: account.id,
        domain: 'warm.example',
        warmupEnabled: true,
        warmupPlan: [{ gmail: 3, other: 0 }, { gmail: 6 }],
        warmupStartedAt: new Date('2026-11-27T09:00:00Z'),
      })
      .returning();
  }, 60_000);

  it('admits exactly the limit of concurrent requests, holds the rest until the next UTC midnight, limits no other provider', async () => {
    const gate = new WarmupGate(db);
    const results = await Promise.all(Array.from({ length: 8 }, () => gate.admit(domain, 'gmail', now)));
    expect(results.filter((result) => result === null)).toHaveLength(3);
    const held = results.filter((result) => result !== null);
    expect(held).toHaveLength(5);
    expect(held[0]).toMatchObject({
      kind: 'held',
      provider: 'gmail',
      until: new Date('2026-11-28T00:00:00Z'),
      log: 'warm-up: Gmail daily limit 3 reached (day 1 of 2); held until 2026-11-28 00:00 UTC',
    });
    // A second process (a fresh gate) finds the same counter full.
    expect(await new WarmupGate(db).admit(domain, 'gmail', now)).not.toBeNull();
    expect(await gate.admit(domain, 'microsoft', now)).toBeNull();
    expect(await gate.admit(domain, 'other', now)).toMatchObject({ kind: 'held', provider: 'other' });
    const [gmail] = await db.select().from(warmupCounters).where(eq(warmupCounters.provider, 'gmail'));
    expect(gmail).toMatchObject({ day: '2026-11-27', sent: 3 });
    // The next day has its own limit and its own count; past the plan nothing is limited or counted.
    const tomorrow = new Date('2026-11-28T00:00:01Z');
    const next = await Promise.all(Array.from({ length: 7 }, () => gate.admit(domain, 'gmail', tomorrow)));
    expect(next.filter((result) => result === null)).toHaveLength(6);
    expect(await gate.admit(domain, 'gmail', new Date('2026-11-29T10:00:00Z'))).toBeNull();
    expect(await db.select().from(warmupCounters).where(eq(warmupCounters.day, '2026-11-29'))).toHaveLength(0);
    expect(await gate.admit({ ...domain, warmupEnabled: false }, 'gmail', now)).toBeNull();
  });

  it('a held message stays queued: lease given back, no attempt counted, the reason in its log, expiry moved with the hold', async () => {
    const claimedAt = new Date(Date.now() + 1000);
    const row = queuedMessage(null, {
      domainId: domain.id,
      nextAttemptAt: new Date(claimedAt.getTime() - 1000),
      expiresAt: new Date(claimedAt.getTime() + 3_600_000),
    });
    await db.insert(messages).values(row);
    const [claimed] = await unsafeClaimDueMessages(db, { workerId: 'w1', limit: 10, leaseMs: 60_000, now: claimedAt });
    const until = new Date(claimedAt.getTime() + 5 * 3_600_000);
    const log = 'warm-up: Gmail daily limit 3 reached (day 1 of 2); held until tomorrow';
    await unsafeHoldWarmupMessages(
      db,
      [{ message: claimed, hold: { kind: 'held', provider: 'gmail', until, log, counterId: domain.id } }],
      {
        workerId: 'w1',
        now: claimedAt,
      },
    );
    const [held] = await db.select().from(messages).where(eq(messages.id, row.id!));
    expect(held).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null, leaseUntil: null });
    expect(held.nextAttemptAt).toEqual(until);
    expect(held.expiresAt.getTime()).toBe(row.expiresAt.getTime() + 5 * 3_600_000);
    expect(held.deliveryAttempts.at(-1)).toMatchObject({ status: 'held', log });
    const counters = await db.select().from(warmupCounters).where(eq(warmupCounters.domainId, domain.id));
    const today = counters.find(
      (counter) => counter.provider === 'gmail' && counter.day === claimedAt.toISOString().slice(0, 10),
    );
    expect(today?.held).toBe(1);
    // Not due again before the hold ends.
    expect(await unsafeClaimDueMessages(db, { workerId: 'w2', limit: 10, leaseMs: 60_000, now: claimedAt })).toEqual(
      [],
    );
  });

  it("the server's IP warm-up limits every domain's direct mail together, not a relay's; a domain's own hold gives its IP count back", async () => {
    const ipPlan = { startedAt: new Date('2026-11-26T00:00:00Z'), plan: [{ yahoo: 1 }, { yahoo: 4, apple: 1 }] };
    const gate = new WarmupGate(db, ipPlan);
    const cold = { ...domain, id: '01a22009-0000-7000-8000-000000000001', warmupEnabled: false };
    // Day 2 of the IP plan: 4 a day for Yahoo, across domains; the 5th of any domain is held.
    const results = await Promise.all([
      ...Array.from({ length: 3 }, () => gate.admit(cold, 'yahoo', now)),
      ...Array.from({ length: 3 }, () =>
        gate.admit({ ...cold, id: '01a22009-0000-7000-8000-000000000002' }, 'yahoo', now),
      ),
    ]);
    expect(results.filter((result) => result === null)).toHaveLength(4);
    expect(results.find((result) => result !== null)).toMatchObject({
      provider: 'yahoo',
      counterId: SERVER_IP_COUNTER_ID,
      log: 'IP warm-up: Yahoo daily limit 4 reached (day 2 of 2); held until 2026-11-28 00:00 UTC',
    });
    expect(gate.applies(cold, now)).toBe(true);
    expect(gate.applies(cold, now, { isRelayed: true })).toBe(false);
    // Through a relay the server's addresses send nothing: the IP does not count it.
    expect(await gate.admit(cold, 'yahoo', now, { isRelayed: true })).toBeNull();
    // Apple: the IP's 1 a day. Then the warming domain's own limit for "other" (0 on its day 1) holds a
    // message the IP had counted (it limits no "other"): the IP's count is given back.
    expect(await gate.admit(cold, 'apple', now)).toBeNull();
    expect(await gate.admit(cold, 'apple', now)).toMatchObject({ counterId: SERVER_IP_COUNTER_ID });
    const otherBefore = await ipSent('other');
    expect(await gate.admit(domain, 'other', now)).toMatchObject({ counterId: domain.id, provider: 'other' });
    expect(await ipSent('other')).toBe(otherBefore);
    // Past the IP plan's last day nothing more is limited or counted by it.
    const later = new Date('2026-11-30T10:00:00Z');
    expect(gate.applies(cold, later)).toBe(false);
    expect(await gate.admit(cold, 'yahoo', later)).toBeNull();
  });

  async function ipSent(provider: string) {
    const rows = await db.select().from(warmupCounters).where(eq(warmupCounters.domainId, SERVER_IP_COUNTER_ID));
    return rows.find((row) => row.provider === provider && row.day === '2026-11-27')?.sent ?? 0;
  }
});
