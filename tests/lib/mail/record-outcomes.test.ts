import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/lib/db/client';
import { events, messages, statsByTagHourly, statsDaily, statsHourly, suppressions } from '@/lib/db/schema';
import type { Outcome } from '@/lib/mail/outcome';
import { recordOutcomes } from '@/lib/mail/record-outcomes';
import { readCampaignCounters } from '@/lib/core/campaigns/campaign-counters';
import { readReportCounters } from '@/lib/core/campaigns/internal/report-counters';
import { newId } from '@/lib/shared/ids';
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
    return db
      .select()
      .from(messages)
      .where(
        inArray(
          messages.id,
          rows.map((row) => row.id!),
        ),
      );
  }
  const counters = async (accountId: string) => {
    const [hourly] = await db.select().from(statsHourly).where(eq(statsHourly.accountId, accountId));
    const tags = await db.select().from(statsByTagHourly).where(eq(statsByTagHourly.accountId, accountId));
    return { delivered: hourly?.delivered ?? 0, tagged: tags.reduce((sum, row) => sum + row.delivered, 0) };
  };

  it('writes state, attempt log, events, counters and "DATA sent" marks of messages still held', async () => {
    const accountId = '00000000-0000-4000-8000-00000000000a';
    const rows = await claimed([
      queuedMessage('w1', { accountId, tags: ['t'] }),
      queuedMessage('w1', { accountId, tags: ['t'] }),
      queuedMessage('w1', { accountId }),
    ]);
    const [a, b, pending] = rows;
    const transaction = vi.spyOn(db, 'transaction');
    await recordOutcomes(
      services,
      db,
      'w1',
      [a, b].map((message) => ({ message, outcome: delivered })),
      { now: new Date(), dataSentIds: [a.id, pending.id] },
    );
    const after = new Map(
      (
        await db
          .select()
          .from(messages)
          .where(
            inArray(
              messages.id,
              rows.map((row) => row.id),
            ),
          )
      ).map((row) => [row.id, row]),
    );
    expect(after.get(a.id)).toMatchObject({ status: 'delivered', lockedBy: null, leaseUntil: null, attempts: 1 });
    expect(after.get(a.id)!.dataSentAt).not.toBeNull();
    expect(after.get(b.id)!.dataSentAt).toBeNull();
    expect(after.get(a.id)!.deliveryAttempts).toEqual([
      expect.objectContaining({ status: 'delivered', log: '250 ok' }),
    ]);
    // A mark alone: the reply is still awaited, the message still held.
    expect(after.get(pending.id)).toMatchObject({ status: 'queued', lockedBy: 'w1' });
    expect(after.get(pending.id)!.dataSentAt).not.toBeNull();
    expect(
      await db
        .select({ type: events.type })
        .from(events)
        .where(inArray(events.messageId, [a.id, b.id])),
    ).toHaveLength(2);
    expect(await counters(accountId)).toEqual({ delivered: 2, tagged: 2 });
    expect(transaction, 'all held: one statement, no transaction').not.toHaveBeenCalled();
    transaction.mockRestore();
  });

  it('a message another worker took since is left alone; the others are written', async () => {
    const accountId = '00000000-0000-4000-8000-00000000000b';
    const [mine, taken] = await claimed([queuedMessage('w1', { accountId }), queuedMessage('w2', { accountId })]);
    const transaction = vi.spyOn(db, 'transaction');
    await recordOutcomes(
      services,
      db,
      'w1',
      [mine, taken].map((message) => ({ message, outcome: delivered })),
      { now: new Date() },
    );
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
    await recordOutcomes(
      services,
      db,
      'w1',
      [later, expiring].map((message) => ({ message, outcome: { kind: 'deferred', log: '451 later' } as Outcome })),
      { now },
    );
    const rows = new Map(
      (
        await db
          .select()
          .from(messages)
          .where(inArray(messages.id, [later.id, expiring.id]))
      ).map((row) => [row.id, row]),
    );
    expect(rows.get(later.id)).toMatchObject({ status: 'deferred', nextAttemptAt: new Date(now.getTime() + 60_000) });
    expect(rows.get(expiring.id)).toMatchObject({ status: 'failed', nextAttemptAt: null });
  });

  it('a delivery fills the delivery-time sum, count and histogram, hourly and daily; a hard bounce its class column and a 30-day suppression (not in sandbox)', async () => {
    const accountId = '00000000-0000-4000-8000-00000000000c';
    const now = new Date('2026-11-03T10:30:00Z');
    const [fast, slow, bounced, soft, sandboxed] = await claimed([
      queuedMessage('w1', {
        accountId,
        firstAttemptAt: new Date(now.getTime() - 800),
        recipientDomain: 'gmail.example',
      }),
      queuedMessage('w1', {
        accountId,
        firstAttemptAt: new Date(now.getTime() - 120_000),
        recipientDomain: 'gmail.example',
      }),
      queuedMessage('w1', { accountId, recipient: 'gone@y.example', expiresAt: new Date(now.getTime() + 3600_000) }),
      queuedMessage('w1', { accountId, recipient: 'full@y.example', expiresAt: new Date(now.getTime() + 3600_000) }),
      queuedMessage('w1', { accountId, recipient: 'sandboxed@y.example', isSandbox: true }),
    ]);
    await recordOutcomes(
      services,
      db,
      'w1',
      [
        { message: fast, outcome: delivered },
        { message: slow, outcome: delivered },
        {
          message: bounced,
          outcome: { kind: 'bounced', log: '550 5.1.1 no such user', classification: 'InvalidRecipient' },
        },
        { message: soft, outcome: { kind: 'bounced', log: '552 5.2.2 mailbox full', classification: 'QuotaIssues' } },
        {
          message: sandboxed,
          outcome: { kind: 'bounced', log: '550 5.1.1 sandbox', classification: 'InvalidRecipient' },
        },
      ],
      { now },
    );
    for (const table of [statsHourly, statsDaily]) {
      const rows = await db.select().from(table).where(eq(table.accountId, accountId));
      const gmail = rows.find((row) => row.recipientDomain === 'gmail.example')!;
      expect(gmail).toMatchObject({
        delivered: 2,
        deliveryTimeCount: 2,
        deliveryTimeSumMs: 120_800,
        deliveryTime0To1s: 1,
        deliveryTime1To5m: 1,
      });
      const y = rows.find((row) => row.recipientDomain === 'y.example')!;
      expect(y).toMatchObject({ bounced: 3, bouncedInvalidRecipient: 2, bouncedQuotaIssues: 1, deliveryTimeCount: 0 });
    }
    const suppressed = await db.select().from(suppressions).where(eq(suppressions.accountId, accountId));
    expect(suppressed).toEqual([
      expect.objectContaining({
        email: 'gone@y.example',
        domain: 'x.example',
        kind: 'bounce',
        expiresAt: new Date(now.getTime() + 30 * 86_400_000),
        reason: expect.stringMatching(/^hard bounce \(InvalidRecipient\): 550 5\.1\.1/),
      }),
    ]);
    expect(await db.select({ type: events.type }).from(events).where(eq(events.accountId, accountId))).toContainEqual({
      type: 'suppression.created',
    });
  });

  it("counts a campaign's messages as their states change, in both write paths, and stores the subject each recipient got", async () => {
    const accountId = '00000000-0000-4000-8000-00000000000d';
    const campaignId = newId();
    const other = newId();
    const inCampaign = (fields: Partial<typeof messages.$inferInsert> = {}) =>
      queuedMessage('w1', { accountId, campaignId, subject: 'Hi {{ first_name }}', ...fields });
    const [ok, later, gone, elsewhere] = await claimed([
      inCampaign(),
      inCampaign(),
      inCampaign({ recipient: 'gone@y.example' }),
      queuedMessage('w1', { accountId, campaignId: other }),
    ]);
    const now = new Date();
    // One statement: no suppression among them.
    await recordOutcomes(
      services,
      db,
      'w1',
      [
        { message: { ...ok, subject: 'Hi Ada' }, outcome: delivered },
        { message: { ...later, subject: 'Hi Bob' }, outcome: { kind: 'deferred', log: '451 later' } },
        { message: elsewhere, outcome: delivered },
      ],
      { now },
    );
    expect(await readCampaignCounters(db, accountId, [campaignId, other])).toEqual(
      new Map([
        [campaignId, expect.objectContaining({ delivered: 1, deferred: 1, bounced: 0, failed: 0 })],
        [other, expect.objectContaining({ delivered: 1, deferred: 0 })],
      ]),
    );
    const subjects = new Map(
      (
        await db
          .select()
          .from(messages)
          .where(inArray(messages.id, [ok.id, later.id, gone.id]))
      ).map((row) => [row.id, row.subject]),
    );
    expect(subjects).toEqual(
      new Map([
        [ok.id, 'Hi Ada'],
        [later.id, 'Hi Bob'],
        [gone.id, 'Hi {{ first_name }}'],
      ]),
    );

    // The retry fails it, and a hard bounce (a suppression: the transaction path) settles the last one.
    const [retried] = await db.update(messages).set({ lockedBy: 'w1' }).where(eq(messages.id, later.id)).returning();
    await recordOutcomes(
      services,
      db,
      'w1',
      [
        { message: retried, outcome: { kind: 'failed', log: '554 no' } },
        {
          message: gone,
          outcome: { kind: 'bounced', log: '550 5.1.1 no such user', classification: 'InvalidRecipient' },
        },
      ],
      { now },
    );
    expect((await readCampaignCounters(db, accountId, [campaignId])).get(campaignId)).toMatchObject({
      delivered: 1,
      deferred: 0,
      failed: 1,
      bounced: 1,
    });
  });

  it("counts a campaign's messages per mailbox provider and hour; the provider of the first outcome stays", async () => {
    const accountId = '00000000-0000-4000-8000-00000000000e';
    const campaignId = newId();
    const [first, second] = await claimed([
      queuedMessage('w1', { accountId, campaignId }),
      queuedMessage('w1', { accountId, campaignId }),
    ]);
    const now = new Date();
    await recordOutcomes(
      services,
      db,
      'w1',
      [
        { message: { ...first, mailboxProvider: 'gmail' }, outcome: delivered },
        { message: { ...second, mailboxProvider: 'microsoft' }, outcome: { kind: 'deferred', log: '451 later' } },
      ],
      { now },
    );
    // The retry is claimed with the provider stored at its first outcome.
    const [retried] = await db.update(messages).set({ lockedBy: 'w1' }).where(eq(messages.id, second.id)).returning();
    expect(retried.mailboxProvider).toBe('microsoft');
    await recordOutcomes(services, db, 'w1', [{ message: retried, outcome: delivered }], { now });
    const counters = await readReportCounters(db, { id: campaignId, accountId });
    expect(counters.providers.filter((entry) => entry.delivered + entry.deferred > 0)).toEqual([
      { provider: 'gmail', delivered: 1, bounced: 0, deferred: 0, opened: 0 },
      { provider: 'microsoft', delivered: 1, bounced: 0, deferred: 0, opened: 0 },
    ]);
    expect(counters.hours).toEqual([
      { at: new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000), delivered: 2, opened: 0, clicked: 0 },
    ]);
  });
});
