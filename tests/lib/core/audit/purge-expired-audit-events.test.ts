import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { unsafePurgeExpiredAuditEvents } from '@/lib/core/audit/purge-expired-audit-events';
import type { Db } from '@/lib/db/client';
import { accounts, auditEvents, users } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { openMemoryDatabase } from '../../../support/memory-database';

/** The retention purge: events older than the retention go, in batches; younger ones stay. */
let db: Db;

beforeAll(async () => {
  db = await openMemoryDatabase();
}, 60_000);

it('deletes every event older than the retention, batch after batch, and keeps the rest', async () => {
  const [owner] = await db
    .insert(users)
    .values({ email: `audit-${newId()}@example.org`, passwordHash: 'x' })
    .returning();
  const [account] = await db.insert(accounts).values({ name: 'Audit retention', ownerId: owner.id }).returning();
  const now = new Date('2026-11-27T12:00:00Z');
  const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
  const event = (occurredAt: Date) => ({
    accountId: account.id,
    occurredAt,
    actorType: 'system',
    action: 'domain.pause',
    resourceType: 'domain',
  });
  await db
    .insert(auditEvents)
    .values([...Array.from({ length: 25 }, () => event(daysAgo(31))), event(daysAgo(29)), event(daysAgo(0))]);

  expect(await unsafePurgeExpiredAuditEvents(db, now, 30, 10)).toBe(25);
  const left = await db.select().from(auditEvents).where(eq(auditEvents.accountId, account.id));
  expect(left.map((row) => row.occurredAt.getTime()).sort()).toEqual([daysAgo(29).getTime(), now.getTime()]);
  expect(await unsafePurgeExpiredAuditEvents(db, now, 30, 10)).toBe(0);
});
