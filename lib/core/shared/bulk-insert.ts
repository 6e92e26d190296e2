import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '@/lib/db/client';

/**
 * Inserts many rows with one parameter per column (`unnest` of arrays) instead of one per value:
 * a 100-recipient send is two statements of ~20 parameters each, not 3,000 (measured: about four
 * times faster on PostgreSQL). Rows are keyed by the table's TypeScript property names; every row
 * must give the same keys. JSON and array columns travel as JSON text.
 */
export async function bulkInsert<T extends PgTable>(
  db: DbOrTx,
  table: T,
  rows: Partial<T['$inferInsert']>[],
): Promise<void> {
  const statement = bulkInsertSql(table, rows);
  if (statement) await db.execute(statement);
}

/** The statement alone, for callers that combine several writes into one (see acceptMessages). */
export function bulkInsertSql<T extends PgTable>(table: T, rows: Partial<T['$inferInsert']>[]): SQL | null {
  if (rows.length === 0) return null;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const keys = Object.keys(rows[0]).filter((key) => columns[key]);
  const names: SQL[] = [];
  const params: SQL[] = [];
  const aliases: string[] = [];
  const selects: SQL[] = [];
  for (const key of keys) {
    const column = columns[key];
    const type = column.getSQLType();
    names.push(sql`${sql.identifier(column.name)}`);
    const values = rows.map((row) => (row as Record<string, unknown>)[key] ?? null);
    // A value every row shares (account, sender, tags, times) goes once, not once per row: a
    // campaign batch of 5,000 would otherwise send and parse it 5,000 times.
    if (rows.length > 1 && isShared(values)) {
      selects.push(sql`${sql.param(sharedValue(column, values[0]))}::${sql.raw(type)}`);
      continue;
    }
    const alias = sql.raw(`c${aliases.length}`);
    aliases.push(`c${aliases.length}`);
    if (column.dataType === 'array' || column.dataType === 'json') {
      params.push(sql`${sql.param(values.map((value) => (value === null ? null : JSON.stringify(value))))}::text[]`);
      selects.push(
        column.dataType === 'array'
          ? sql`array(select jsonb_array_elements_text(${alias}::jsonb))::${sql.raw(type)}`
          : sql`${alias}::jsonb`,
      );
    } else {
      params.push(
        sql`${sql.param(values.map((value) => (value instanceof Date ? value.toISOString() : value)))}::${sql.raw(column.dataType === 'date' ? 'timestamptz' : type)}[]`,
      );
      selects.push(alias);
    }
  }
  const from = aliases.length
    ? sql` from unnest(${sql.join(params, sql`, `)}) as t(${sql.raw(aliases.join(', '))})`
    : sql` from generate_series(1, ${rows.length})`;
  return sql`insert into ${table} (${sql.join(names, sql`, `)}) select ${sql.join(selects, sql`, `)}${from}`;
}

/** One value for every row: the same reference (or the same instant), as a batch built from one request gives. */
function isShared(values: unknown[]): boolean {
  const [first] = values;
  if (first instanceof Date)
    return values.every((value) => value instanceof Date && value.getTime() === first.getTime());
  return values.every((value) => value === first);
}

/** How a shared value travels: JSON as text, times as ISO text, arrays as arrays of their type. */
function sharedValue(column: PgColumn, value: unknown): unknown {
  if (value === null) return null;
  if (value instanceof Date) return value.toISOString();
  return column.dataType === 'json' ? JSON.stringify(value) : value;
}
