import { sql, type SQL } from 'drizzle-orm';

type Column = { name: string; type: 'uuid' | 'text' | 'timestamptz' };

/**
 * Counter changes summed in memory under a key, then written as one upsert:
 * `insert ... select from unnest(...) on conflict (key, writer) do update set c = c + excluded.c`.
 * Rows go in key order, so that concurrent writers lock shared rows in the same order.
 */
export class KeyedCounters<C extends string> {
  private readonly rows = new Map<string, { values: string[]; accountId: string; counts: Map<C, number> }>();

  constructor(
    private readonly table: {
      name: string;
      /** The key's columns, then columns written only by the insert (a link's URL). */
      columns: Column[];
      keyLength: number;
      counters: readonly C[];
    },
  ) {}

  add(values: string[], accountId: string, counter: C, delta = 1): void {
    if (delta === 0) return;
    const key = values.slice(0, this.table.keyLength).join('\u0000');
    let row = this.rows.get(key);
    if (!row) {
      row = { values, accountId, counts: new Map() };
      this.rows.set(key, row);
    }
    row.counts.set(counter, (row.counts.get(counter) ?? 0) + delta);
  }

  get isEmpty(): boolean {
    return this.rows.size === 0;
  }

  statement(writer: number): SQL | null {
    if (this.isEmpty) return null;
    const { name, columns, keyLength, counters } = this.table;
    const rows = [...this.rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
    const arrays = [
      ...columns.map(
        (column, index) => sql`${sql.param(rows.map((row) => row.values[index]))}::${sql.raw(column.type)}[]`,
      ),
      sql`${sql.param(rows.map((row) => row.accountId))}::uuid[]`,
      ...counters.map((counter) => sql`${sql.param(rows.map((row) => row.counts.get(counter) ?? 0))}::int[]`),
    ];
    const names = [...columns.map((column) => column.name), 'account_id', ...counters].join(', ');
    const key = columns
      .slice(0, keyLength)
      .map((column) => column.name)
      .join(', ');
    const updates = counters.map((counter) => `${counter} = ${name}.${counter} + excluded.${counter}`).join(', ');
    return sql`insert into ${sql.raw(name)} (writer, ${sql.raw(names)})
      select ${writer}::smallint, ${sql.raw(names)}
      from unnest(${sql.join(arrays, sql`, `)}) as t(${sql.raw(names)})
      on conflict (${sql.raw(key)}, writer) do update set ${sql.raw(updates)}`;
  }
}
