import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { dayOf, deliveryTimeColumn, hourOf, Rollup, type RollupFacts } from '@/lib/core/statistics/rollup';
import type { Db } from '@/lib/db/client';
import {
  DELIVERY_TIME_BOUNDS_SECONDS,
  DELIVERY_TIME_COLUMNS,
  statsByTagDaily,
  statsByTagHourly,
  statsDaily,
  statsHourly,
} from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { openMemoryDatabase } from '../../../support/memory-database';

/** The rollup writer on an in-memory PGlite: which rows each counted change lands in, and with what. */
let db: Db;

beforeAll(async () => {
  db = await openMemoryDatabase();
}, 60_000);

const facts = (accountId: string, fields: Partial<RollupFacts> = {}): RollupFacts => ({
  accountId,
  at: new Date('2026-11-03T10:20:00Z'),
  senderDomain: 'acme.example',
  recipientDomain: 'gmail.example',
  tags: [],
  ...fields,
});

const rowsOf = async (accountId: string) => ({
  hourly: await db.select().from(statsHourly).where(eq(statsHourly.accountId, accountId)),
  daily: await db.select().from(statsDaily).where(eq(statsDaily.accountId, accountId)),
  byTagHourly: await db.select().from(statsByTagHourly).where(eq(statsByTagHourly.accountId, accountId)),
  byTagDaily: await db.select().from(statsByTagDaily).where(eq(statsByTagDaily.accountId, accountId)),
});

describe('time and histogram helpers', () => {
  it('hours and days are UTC', () => {
    expect(hourOf(new Date('2026-11-03T10:59:59.999Z')).toISOString()).toBe('2026-11-03T10:00:00.000Z');
    expect(dayOf(new Date('2026-11-03T23:59:59.999Z')).toISOString()).toBe('2026-11-03T00:00:00.000Z');
  });

  it.each([
    [0, 'deliveryTime0To1s'],
    [1000, 'deliveryTime0To1s'],
    [1001, 'deliveryTime1To5s'],
    [5000, 'deliveryTime1To5s'],
    [29_999, 'deliveryTime5To30s'],
    [60_000, 'deliveryTime30To60s'],
    [60_001, 'deliveryTime1To5m'],
    [1_800_000, 'deliveryTime5To30m'],
    [7_200_000, 'deliveryTime30mTo2h'],
    [7_200_001, 'deliveryTimeOver2h'],
    [30 * 86_400_000, 'deliveryTimeOver2h'],
  ])('a delivery of %i ms falls in %s (bins are inclusive upper bounds)', (ms, column) => {
    expect(deliveryTimeColumn(ms)).toBe(column);
  });

  it('one histogram column per bound, and one more for the rest', () => {
    expect(DELIVERY_TIME_COLUMNS).toHaveLength(DELIVERY_TIME_BOUNDS_SECONDS.length + 1);
  });
});

describe('Rollup', () => {
  it('an empty rollup writes nothing', async () => {
    const rollup = new Rollup();
    expect(rollup.isEmpty).toBe(true);
    expect(rollup.statements()).toEqual([]);
    await rollup.flush(db);
  });

  it('counts land in the hourly and the daily row of their time, per sender and recipient domain; untagged changes write no tag rows', async () => {
    const accountId = newId();
    const rollup = new Rollup();
    rollup.count(facts(accountId), 'reception');
    rollup.count(facts(accountId, { at: new Date('2026-11-03T10:50:00Z') }), 'reception');
    rollup.count(facts(accountId, { at: new Date('2026-11-03T22:00:00Z') }), 'reception');
    rollup.count(facts(accountId, { recipientDomain: 'outlook.example' }), 'deferred');
    expect(rollup.isEmpty).toBe(false);
    await rollup.flush(db);
    const { hourly, daily, byTagHourly, byTagDaily } = await rowsOf(accountId);
    const brief = (
      rows: { senderDomain: string; recipientDomain: string; reception: number; deferred: number }[],
      time: (row: never) => Date,
    ) => rows.map((row) => [time(row as never).toISOString(), row.recipientDomain, row.reception, row.deferred]).sort();
    expect(brief(hourly, (row: { hour: Date }) => row.hour)).toEqual([
      ['2026-11-03T10:00:00.000Z', 'gmail.example', 2, 0],
      ['2026-11-03T10:00:00.000Z', 'outlook.example', 0, 1],
      ['2026-11-03T22:00:00.000Z', 'gmail.example', 1, 0],
    ]);
    expect(brief(daily, (row: { day: Date }) => row.day)).toEqual([
      ['2026-11-03T00:00:00.000Z', 'gmail.example', 3, 0],
      ['2026-11-03T00:00:00.000Z', 'outlook.example', 0, 1],
    ]);
    expect(byTagHourly).toEqual([]);
    expect(byTagDaily).toEqual([]);
  });

  it('a delivery adds its time to the sum, the count and one histogram bin; a bounce adds its class (unknown classes: Uncategorized)', async () => {
    const accountId = newId();
    const rollup = new Rollup();
    rollup.count(facts(accountId), 'delivered', 400.4);
    rollup.count(facts(accountId), 'delivered', 90_000);
    rollup.count(facts(accountId), 'delivered', -5);
    rollup.count(facts(accountId), 'bounced');
    rollup.countBounce(facts(accountId), 'InvalidRecipient');
    rollup.count(facts(accountId), 'bounced');
    rollup.countBounce(facts(accountId), 'SomethingNew');
    await rollup.flush(db);
    const { hourly, daily } = await rowsOf(accountId);
    for (const row of [hourly[0], daily[0]]) {
      expect(row).toMatchObject({
        delivered: 3,
        bounced: 2,
        deliveryTimeCount: 3,
        // Rounded to whole ms; a clock step backwards counts as 0, not a negative time.
        deliveryTimeSumMs: 90_400,
        deliveryTime0To1s: 2,
        deliveryTime1To5m: 1,
        deliveryTimeOver2h: 0,
        bouncedInvalidRecipient: 1,
        bouncedUncategorized: 1,
        bouncedBadDomain: 0,
      });
    }
  });

  it('later flushes add to the same rows', async () => {
    const accountId = newId();
    for (let i = 0; i < 3; i++) {
      const rollup = new Rollup();
      rollup.count(facts(accountId, { tags: ['a'] }), 'opened');
      rollup.count(facts(accountId, { tags: ['a'] }), 'delivered', 2_000);
      await rollup.flush(db);
    }
    const { hourly, daily, byTagHourly, byTagDaily } = await rowsOf(accountId);
    for (const rows of [hourly, daily, byTagHourly, byTagDaily]) {
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        opened: 3,
        delivered: 3,
        deliveryTimeCount: 3,
        deliveryTimeSumMs: 6_000,
        deliveryTime1To5s: 3,
      });
    }
  });

  it('a tagged change is written once under each of its tags, with the whole sorted tag set; duplicates count once', async () => {
    const accountId = newId();
    const rollup = new Rollup();
    rollup.count(facts(accountId, { tags: ['welcome', 'eu', 'welcome'] }), 'reception');
    rollup.count(facts(accountId, { tags: ['eu'] }), 'reception');
    await rollup.flush(db);
    const { hourly, byTagHourly, byTagDaily } = await rowsOf(accountId);
    expect(hourly[0].reception).toBe(2);
    for (const rows of [byTagHourly, byTagDaily]) {
      expect(rows.map((row) => [row.tag, row.tags, row.reception]).sort()).toEqual([
        ['eu', ['eu'], 1],
        ['eu', ['eu', 'welcome'], 1],
        ['welcome', ['eu', 'welcome'], 1],
      ]);
    }
  });

  it('tags with quotes, backslashes, commas, braces, spaces and non-ASCII travel intact', async () => {
    const accountId = newId();
    const tags = ['say "hi"', 'back\\slash', 'a,b', '{braces}', ' padded ', 'NULL', 'café'];
    const rollup = new Rollup();
    rollup.count(facts(accountId, { tags }), 'reception');
    await rollup.flush(db);
    const { byTagHourly } = await rowsOf(accountId);
    const sorted = [...new Set(tags)].sort();
    expect(byTagHourly.map((row) => row.tag).sort()).toEqual(sorted);
    for (const row of byTagHourly) expect(row.tags).toEqual(sorted);
  });

  it('one batch for many accounts, hours and domains writes one statement per table', async () => {
    const accounts = [newId(), newId()];
    const rollup = new Rollup();
    for (const accountId of accounts) {
      for (let hour = 0; hour < 30; hour++) {
        rollup.count(
          facts(accountId, {
            at: new Date(Date.UTC(2026, 10, 3, hour)),
            recipientDomain: `r${hour % 3}.example`,
            tags: hour % 2 ? ['odd'] : [],
          }),
          'reception',
        );
      }
    }
    expect(rollup.statements()).toHaveLength(4);
    await rollup.flush(db);
    for (const accountId of accounts) {
      const { hourly, daily, byTagHourly, byTagDaily } = await rowsOf(accountId);
      expect(hourly).toHaveLength(30);
      expect(daily.map((row) => [row.day.toISOString(), row.recipientDomain, row.reception]).sort()).toEqual([
        ['2026-11-03T00:00:00.000Z', 'r0.example', 8],
        ['2026-11-03T00:00:00.000Z', 'r1.example', 8],
        ['2026-11-03T00:00:00.000Z', 'r2.example', 8],
        ['2026-11-04T00:00:00.000Z', 'r0.example', 2],
        ['2026-11-04T00:00:00.000Z', 'r1.example', 2],
        ['2026-11-04T00:00:00.000Z', 'r2.example', 2],
      ]);
      expect(byTagHourly.reduce((sum, row) => sum + row.reception, 0)).toBe(15);
      expect(byTagDaily.reduce((sum, row) => sum + row.reception, 0)).toBe(15);
    }
  });
});
