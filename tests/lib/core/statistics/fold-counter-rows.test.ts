import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliveryCounterWriter,
  FOLDED_COUNTER_WRITER,
  SHARED_COUNTER_WRITER,
  useCounterRowsFor,
  withAcceptanceCounterWriter,
} from '@/lib/core/statistics/counter-writers';
import { unsafeFoldCounterRows } from '@/lib/core/statistics/fold-counter-rows';
import { Rollup, type RollupFacts } from '@/lib/core/statistics/rollup';
import type { Db } from '@/lib/db/client';
import { statsByTagDaily, statsByTagHourly, statsDaily, statsHourly } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { openMemoryDatabase } from '../../../support/memory-database';

let db: Db;
beforeAll(async () => {
  db = await openMemoryDatabase();
}, 60_000);
afterAll(() => useCounterRowsFor('pglite'));

const NOW = new Date('2026-11-24T10:20:00Z');
const HOUR = 3_600_000;

describe('counter writers', () => {
  it('on PostgreSQL each acceptance in flight gets rows of its own, the lowest free lane, apart from delivery; on PGlite all share one', async () => {
    useCounterRowsFor('postgres');
    const writers: number[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const inFlight = [0, 1, 2].map(() =>
      withAcceptanceCounterWriter(async (writer) => {
        writers.push(writer);
        await held;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(new Set(writers).size).toBe(3);
    expect(writers).not.toContain(deliveryCounterWriter());
    expect(writers).not.toContain(SHARED_COUNTER_WRITER);
    release();
    await Promise.all(inFlight);
    // Once they are done, the next one takes the lowest lane again.
    expect(await withAcceptanceCounterWriter(async (writer) => writer)).toBe(Math.min(...writers));

    useCounterRowsFor('pglite');
    expect([deliveryCounterWriter(), await withAcceptanceCounterWriter(async (writer) => writer)]).toEqual([
      SHARED_COUNTER_WRITER,
      SHARED_COUNTER_WRITER,
    ]);
  });
});

describe('folding counter rows', () => {
  const totals = async (accountId: string) => {
    const result: Record<string, unknown> = {};
    for (const [name, table] of Object.entries({ statsHourly, statsDaily, statsByTagHourly, statsByTagDaily })) {
      const [row] = await db
        .select({
          reception: sql<number>`coalesce(sum(${table.reception}), 0)::int`,
          delivered: sql<number>`coalesce(sum(${table.delivered}), 0)::int`,
          timeSum: sql<number>`coalesce(sum(${table.deliveryTimeSumMs}), 0)::int`,
        })
        .from(table)
        .where(eq(table.accountId, accountId));
      result[name] = row;
    }
    return result;
  };
  // The hours and writers of an account's rows (by tag: under one of its two tags).
  const writersOf = async (accountId: string, table: typeof statsHourly | typeof statsByTagHourly) =>
    (
      await db
        .select({ hour: table.hour, writer: table.writer })
        .from(table)
        .where(and(eq(table.accountId, accountId), 'tag' in table ? eq(table.tag, 'news') : undefined))
    )
      .map((row) => `${row.hour.toISOString()} ${row.writer}`)
      .sort();

  it('sums the lanes of ended hours and days into one row each, keeps the current ones, and loses no count', async () => {
    const accountId = newId();
    const facts = (at: Date): RollupFacts => ({
      accountId,
      at,
      senderDomain: 'acme.example',
      recipientDomain: 'gmail.example',
      tags: ['news', 'weekly'],
    });
    const twoDaysAgo = new Date(NOW.getTime() - 48 * HOUR);
    const twoHoursAgo = new Date(NOW.getTime() - 2 * HOUR);
    const write = async (writer: number, at: Date, change: (rollup: Rollup, facts: RollupFacts) => void) => {
      const rollup = new Rollup(writer);
      change(rollup, facts(at));
      await rollup.flush(db);
    };
    for (const at of [twoDaysAgo, twoHoursAgo, NOW]) {
      await write(1, at, (rollup, f) => rollup.count(f, 'delivered', 1500));
      await write(2, at, (rollup, f) => rollup.countTimes(f, 'reception', 10));
      await write(3, at, (rollup, f) => rollup.countTimes(f, 'reception', 5));
      await write(SHARED_COUNTER_WRITER, at, (rollup, f) => rollup.count(f, 'opened'));
    }
    // A row folded earlier takes the new sums in (the conflict path).
    await write(FOLDED_COUNTER_WRITER, twoHoursAgo, (rollup, f) => rollup.countTimes(f, 'reception', 7));
    const before = await totals(accountId);

    // Batches of 2 rows: the loop runs until every ended row is folded.
    const moved = await unsafeFoldCounterRows(db, NOW, 2);
    expect(moved).toBeGreaterThan(0);
    expect(await totals(accountId)).toEqual(before);
    const hour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR) * HOUR).toISOString();
    for (const table of [statsHourly, statsByTagHourly]) {
      const rows = await writersOf(accountId, table);
      // Ended hours: the shared row and one folded row; the current hour: as written.
      for (const at of [twoDaysAgo, twoHoursAgo])
        expect(rows.filter((row) => row.startsWith(hour(at)))).toEqual([`${hour(at)} -1`, `${hour(at)} 0`]);
      expect(rows.filter((row) => row.startsWith(hour(NOW)))).toEqual([
        `${hour(NOW)} 0`,
        `${hour(NOW)} 1`,
        `${hour(NOW)} 2`,
        `${hour(NOW)} 3`,
      ]);
    }
    const daily = (
      await db
        .select({ day: statsDaily.day, writer: statsDaily.writer })
        .from(statsDaily)
        .where(eq(statsDaily.accountId, accountId))
    )
      .map((row) => `${row.day.toISOString().slice(0, 10)} ${row.writer}`)
      .sort();
    // Today's -1 row is the one written as folded above; today's lanes stay until the day ends.
    expect(daily).toEqual([
      '2026-11-22 -1',
      '2026-11-22 0',
      '2026-11-24 -1',
      '2026-11-24 0',
      '2026-11-24 1',
      '2026-11-24 2',
      '2026-11-24 3',
    ]);

    // Nothing left to fold: a second run moves nothing.
    expect(await unsafeFoldCounterRows(db, NOW, 2)).toBe(0);
  });
});
