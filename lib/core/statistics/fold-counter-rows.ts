import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '@/lib/db/client';
import { FOLDED_COUNTER_WRITER } from './counter-writers';
import { GRAINS, type Grain } from './rollup';

/**
 * Scheduled job: the counter rows of delivery and acceptance lanes (writers above 0, see
 * counter-writers.ts) of hours and days that have ended are summed into one row per key (the
 * folded writer), so that a report reads about one row per hour or day and domains, whatever
 * wrote them. In batches; a later write to an ended hour makes a row that the next run folds.
 * Unsafe: every account's rows; only the scheduler calls it.
 */
export async function unsafeFoldCounterRows(db: Db, now: Date, batchSize = 5000): Promise<number> {
  let total = 0;
  for (const grain of GRAINS) {
    for (;;) {
      const folded = await foldBatch(db, grain, grain.timeOf(now), batchSize);
      total += folded;
      if (folded < batchSize) break;
    }
  }
  return total;
}

async function foldBatch(db: Db, grain: Grain, before: Date, batchSize: number): Promise<number> {
  const table = sql.identifier(getTableName(grain.table));
  const keys = grain.conflict.filter((column) => column.name !== 'writer');
  const keyNames = new Set(grain.conflict.map((column) => column.name));
  const counters = Object.values(getTableColumns(grain.table) as Record<string, PgColumn>).filter(
    (column) => !keyNames.has(column.name),
  );
  const key = sql.join(
    keys.map((column) => sql.identifier(column.name)),
    sql`, `,
  );
  const counterNames = sql.join(
    counters.map((column) => sql.identifier(column.name)),
    sql`, `,
  );
  const sums = sql.join(
    counters.map((column) => sql`sum(${sql.identifier(column.name)})`),
    sql`, `,
  );
  const added = sql.join(
    counters.map(
      (column) =>
        sql`${sql.identifier(column.name)} = ${table}.${sql.identifier(column.name)} + excluded.${sql.identifier(column.name)}`,
    ),
    sql`, `,
  );
  const time = sql.identifier(grain.time.name);
  const result = await db.execute(sql`
    with moved as (
      delete from ${table} where ctid in (
        select ctid from ${table} where writer > 0 and ${time} < ${before.toISOString()}::timestamptz limit ${batchSize}
      ) returning *
    ), folded as (
      insert into ${table} (${key}, writer, ${counterNames})
      select ${key}, ${FOLDED_COUNTER_WRITER}, ${sums} from moved group by ${key} order by ${key}
      on conflict (${key}, writer) do update set ${added}
    )
    select count(*)::int as moved from moved`);
  return (result as unknown as { rows: { moved: number }[] }).rows[0].moved;
}
