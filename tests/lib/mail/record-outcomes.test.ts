import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/lib/db/client';
import { events, messages, statsHourly, statsTagsHourly } from '@/lib/db/schema';
import type { Outcome } from '@/lib/mail/outcome';
import { recordOutcomes } from '@/lib/mail/record-outcomes';
import { openMemoryDatabase, queuedMessage } from '../../support/memory-database';

const services = { config: { delivery: { retrySchedule: [60] } } } as never;
const delivered: Outcome = { kind: 'delivered', log: '250 ok' };

describe('recordOutcomes (in-memory PGlite)', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openMemoryDatabase();
  }, 60_000);

  async function claimed(rows: ReturnType<typeof queuedMessage>[]) {
    await db.insert(messages).values(rows);
    return db.select().from(messages).where(inArray(messages.id, rows.map((row) => row.id!)));
  }
  const counters = async (accountId: string) => {
    const [hourly] = await db.select().from(statsHourly).where(eq(statsHourly.accountId, accountId));
    const tags = await db.select().from(statsTagsHourly).where(eq(statsTagsHourly.accountId, accountId));
    return { delivered: hourly?.delivered ?? 0, tagged: tags.reduce((sum, row) => sum + row.delivered, 0) };
  };

  it('writes state, attempt log, events, counters and "DATA sent" marks of messages still held', async () => {
    const accountId = '00000000-0000-4000-8000-00000000000a';
    const rows = await claimed([queuedMessage('w1', { accountId, tags: ['t'] }), queuedMessage('w1', { accountId, tags: ['t'] }), queuedMessage('w1', { accountId })]);
    const [a, b, pending] = rows;
    const transaction = vi.spyOn(db, 'transaction');
    await recordOutcomes(services, db, 'w1', [a, b].map((message) => ({ message, outcome: delivered })), { now: new Date(), dataSentIds: [a.id, pending.id] });
    const after = new Map((await db.select().from(messages).where(inArray(messages.id, rows.map((row) => row.id)))).map((row) => [row.id, row]));
    expect(after.get(a.id)).toMatchObject({ status: 'delivered', lockedBy: null, leaseUntil: null, attempts: 1 });
    expect(after.get(a.id)!.dataSentAt).not.toBeNull();
    expect(after.get(b.id)!.dataSentAt).toBeNull();
    expect(after.get(a.id)!.deliveryAttempts).toEqual([expect.objectContaining({ status: 'delivered', log: '250 ok' })]);
    // A mark alone: the reply is still awaited, the message still held.
    expect(after.get(pending.id)).toMatchObject({ status: 'queued', lockedBy: 'w1' });
    expect(after.get(pending.id)!.dataSentAt).not.toBeNull();
    expect(await db.select({ type: events.type }).from(events).where(inArray(events.messageId, [a.id, b.id]))).toHaveLength(2);
    expect(await counters(accountId)).toEqual({ delivered: 2, tagged: 2 });
    expect(transaction, 'all held: one statement, no transaction').not.toHaveBeenCalled();
    transaction.mockRestore();
  });

  it('a message another worker took since is left alone; the others are written', async () => {
    const accountId = '00000000-0000-4000-8000-00000000000b';
    const [mine, taken] = await claimed([queuedMessage('w1', { accountId }), queuedMessage('w2', { accountId })]);
    const transaction = vi.spyOn(db, 'transaction');
    await recordOutcomes(services, db, 'w1', [mine, taken].map((message) => ({ message, outcome: delivered })), { now: new Date() });
    const [after] = await db.select().from(messages).where(eq(messages.id, taken.id));
    expect(after).toMatchObject({ status: 'queued', lockedBy: 'w2' });
    expect(await db.select().from(events).where(eq(events.messageId, taken.id))).toHaveLength(0);
    expect(await db.select().from(events).where(eq(events.messageId, mine.id))).toHaveLength(1);
    expect(await counters(accountId)).toEqual({ delivered: 1, tagged: 0 });
    expect(transaction).toHaveBeenCalledTimes(1);
    transaction.mockRestore();
  });

  it('a deferral is scheduled on RETRY_SCHEDULE, or fails the message when that is past its expiry', async () => {
    const soon = new Date(Date.now() + 30_000);
    const [later, expiring] = await claimed([queuedMessage('w1'), queuedMessage('w1', { expiresAt: soon })]);
    const now = new Date();
    await recordOutcomes(services, db, 'w1', [later, expiring].map((message) => ({ message, outcome: { kind: 'deferred', log: '451 later' } as Outcome })), { now });
    const rows = new Map((await db.select().from(messages).where(inArray(messages.id, [later.id, expiring.id]))).map((row) => [row.id, row]));
    expect(rows.get(later.id)).toMatchObject({ status: 'deferred', nextAttemptAt: new Date(now.getTime() + 60_000) });
    expect(rows.get(expiring.id)).toMatchObject({ status: 'failed', nextAttemptAt: null });
  });
});
