import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliveryCounterWriter,
  useCounterRowsFor,
  withAcceptanceCounterWriter,
} from '@/lib/core/statistics/counter-writers';
import { Rollup, type RollupFacts } from '@/lib/core/statistics/rollup';
import { MIGRATIONS_FOLDER, type Db } from '@/lib/db/client';
import * as schema from '@/lib/db/schema';
import { statsHourly } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { createScratchDatabase } from '../../../../e2e/support/postgres';

/**
 * Counter rows are locked until their writer commits. On PostgreSQL, with real row locks: an
 * acceptance waits neither for an open delivery outcome write on the same counters nor for another
 * acceptance in flight, while a second delivery write does wait. Needs MAILSTEAD_TEST_POSTGRES_URL;
 * a scratch database.
 */
const adminUrl = process.env.MAILSTEAD_TEST_POSTGRES_URL;

describe.skipIf(!adminUrl)('counter writers on PostgreSQL', () => {
  let pool: pg.Pool;
  let db: Db;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const scratch = await createScratchDatabase(adminUrl!, 'mailstead_counters');
    drop = scratch.drop;
    pool = new pg.Pool({ connectionString: scratch.url, max: 4 });
    // The scratch database is dropped with (force) at the end: idle connections then hear of it.
    pool.on('error', () => {});
    db = drizzle({ client: pool, schema }) as unknown as Db;
    await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    useCounterRowsFor('postgres');
  }, 60_000);
  afterAll(async () => {
    useCounterRowsFor('pglite');
    await pool?.end();
    await drop?.();
  });

  /** Runs the rollup's upserts in a transaction that commits only when `commit` is called. */
  async function openWrite(rollup: Rollup) {
    const client = await pool.connect();
    const tx = drizzle({ client, schema });
    await client.query('begin');
    for (const statement of rollup.statements().reverse()) await tx.execute(statement);
    return {
      commit: async () => {
        await client.query('commit');
        client.release();
      },
    };
  }

  /** Starts the rollup's write in its own transaction; `isDone` says whether it committed within `ms`. */
  async function writeWithin(
    rollup: Pick<Rollup, 'flush'>,
    ms: number,
  ): Promise<{ written: Promise<void>; isDone: boolean }> {
    const written = rollup.flush(db);
    const isDone = await Promise.race([
      written.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
    ]);
    return { written, isDone };
  }

  it('an acceptance goes ahead while a delivery write and another acceptance hold the same counters; a second delivery write waits', async () => {
    const accountId = newId();
    const facts: RollupFacts = {
      accountId,
      at: new Date(),
      senderDomain: 'acme.example',
      recipientDomain: 'gmail.example',
      tags: ['news'],
    };
    const delivered = new Rollup(deliveryCounterWriter());
    delivered.count(facts, 'delivered', 800);
    const open = await openWrite(delivered);

    // An acceptance in flight (its transaction still open) while a second one writes.
    let releaseFirst: () => void = () => {};
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstWrote: () => void = () => {};
    const firstWritten = new Promise<void>((resolve) => (firstWrote = resolve));
    const first = withAcceptanceCounterWriter(async (writer) => {
      const rollup = new Rollup(writer);
      rollup.countTimes(facts, 'reception', 100);
      const held = await openWrite(rollup);
      firstWrote();
      await firstHolds;
      await held.commit();
      return writer;
    });
    await firstWritten;
    let secondWriter = -1;
    const second = await writeWithin(
      {
        flush: (database: Db) =>
          withAcceptanceCounterWriter(async (writer) => {
            secondWriter = writer;
            const rollup = new Rollup(writer);
            rollup.countTimes(facts, 'reception', 50);
            await rollup.flush(database);
          }),
      },
      5_000,
    );
    expect(second.isDone).toBe(true);
    releaseFirst();
    expect(await first).not.toBe(secondWriter);

    const again = new Rollup(deliveryCounterWriter());
    again.count(facts, 'delivered', 900);
    const third = await writeWithin(again, 300);
    expect(third.isDone).toBe(false);
    await open.commit();
    await third.written;

    // Readers sum over writers: the counts are whole.
    const [sums] = await db
      .select({
        rows: sql<number>`count(*)::int`,
        reception: sql<number>`sum(${statsHourly.reception})::int`,
        delivered: sql<number>`sum(${statsHourly.delivered})::int`,
      })
      .from(statsHourly)
      .where(eq(statsHourly.accountId, accountId));
    expect(sums).toEqual({ rows: 3, reception: 150, delivered: 2 });
  });
});
