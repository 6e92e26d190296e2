import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '@/lib/db/client';
import {
  BOUNCE_COLUMN_OF,
  DELIVERY_TIME_BOUNDS_SECONDS,
  DELIVERY_TIME_COLUMNS,
  statsByTagDaily,
  statsByTagHourly,
  statsDaily,
  statsHourly,
  type BounceClassification,
  type RollupCounter,
} from '@/lib/db/schema';
import { SHARED_COUNTER_WRITER } from './counter-writers';

export type Counter =
  | 'reception'
  | 'delivered'
  | 'deferred'
  | 'bounced'
  | 'failed'
  | 'suppressed'
  | 'opened'
  | 'clicked'
  | 'complained'
  | 'deliveredTls'
  | 'deliveredPlain'
  | 'campaignDelivered'
  | 'campaignOneClick';

/** What a counted change is about; `at` decides its hour and day (UTC). */
export type RollupFacts = {
  accountId: string;
  at: Date;
  senderDomain: string;
  recipientDomain: string;
  tags: readonly string[];
};

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
export const dayOf = (at: Date) => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

/** The histogram column a delivery time falls in. */
export function deliveryTimeColumn(deliveryMs: number): RollupCounter {
  const bin = DELIVERY_TIME_BOUNDS_SECONDS.findIndex((bound) => deliveryMs <= bound * 1000);
  return DELIVERY_TIME_COLUMNS[bin === -1 ? DELIVERY_TIME_COLUMNS.length - 1 : bin];
}

/** A PostgreSQL array literal, so that a list of tag sets travels as one text[] parameter. */
const arrayLiteral = (values: readonly string[]) =>
  `{${values.map((value) => `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`).join(',')}}`;

export type Grain = {
  table: PgTable;
  time: PgColumn;
  timeOf: (at: Date) => Date;
  isByTag: boolean;
  conflict: PgColumn[];
};

// Statement order: callers run them last first (acceptance's one statement does; see record-outcomes),
// so every writer takes the row locks of these tables in the same order.
export const GRAINS: Grain[] = [
  {
    table: statsHourly,
    time: statsHourly.hour,
    timeOf: hourOf,
    isByTag: false,
    conflict: [
      statsHourly.accountId,
      statsHourly.hour,
      statsHourly.senderDomain,
      statsHourly.recipientDomain,
      statsHourly.writer,
    ],
  },
  {
    table: statsDaily,
    time: statsDaily.day,
    timeOf: dayOf,
    isByTag: false,
    conflict: [
      statsDaily.accountId,
      statsDaily.day,
      statsDaily.senderDomain,
      statsDaily.recipientDomain,
      statsDaily.writer,
    ],
  },
  {
    table: statsByTagHourly,
    time: statsByTagHourly.hour,
    timeOf: hourOf,
    isByTag: true,
    conflict: [
      statsByTagHourly.accountId,
      statsByTagHourly.tag,
      statsByTagHourly.hour,
      statsByTagHourly.senderDomain,
      statsByTagHourly.recipientDomain,
      statsByTagHourly.tags,
      statsByTagHourly.writer,
    ],
  },
  {
    table: statsByTagDaily,
    time: statsByTagDaily.day,
    timeOf: dayOf,
    isByTag: true,
    conflict: [
      statsByTagDaily.accountId,
      statsByTagDaily.tag,
      statsByTagDaily.day,
      statsByTagDaily.senderDomain,
      statsByTagDaily.recipientDomain,
      statsByTagDaily.tags,
      statsByTagDaily.writer,
    ],
  },
];

type Entry = {
  accountId: string;
  time: Date;
  tag: string;
  senderDomain: string;
  recipientDomain: string;
  tags: string;
  counts: Map<RollupCounter, number>;
};

/**
 * Statistics counters summed in memory for one batch of changes, then written with one upsert per
 * table (hourly and daily, and by tag for tagged messages) in the same transaction as the events
 * they count. Rows go in key order, so concurrent writers lock shared rows in the same order.
 */
export class Rollup {
  private readonly entries: Map<string, Entry>[] = GRAINS.map(() => new Map());

  /** `writer`: whose counter rows these changes go to (counter-writers.ts). */
  constructor(private readonly writer: number = SHARED_COUNTER_WRITER) {}

  count(event: RollupFacts, counter: Counter, deliveryMs?: number) {
    const increments: [RollupCounter, number][] = [[counter, 1]];
    if (deliveryMs !== undefined) {
      const ms = Math.max(0, Math.round(deliveryMs));
      increments.push(['deliveryTimeSumMs', ms], ['deliveryTimeCount', 1], [deliveryTimeColumn(ms), 1]);
    }
    this.add(event, increments);
  }

  /** The same fact `times` times at once (a bulk acceptance counts its recipients per domain). */
  countTimes(event: RollupFacts, counter: Counter, times: number) {
    if (times > 0) this.add(event, [[counter, times]]);
  }

  /** The bounce's classification; the `bounced` outcome itself is counted with `count`. */
  countBounce(event: RollupFacts, classification: string) {
    this.add(event, [[BOUNCE_COLUMN_OF[classification as BounceClassification] ?? 'bouncedUncategorized', 1]]);
  }

  get isEmpty() {
    return this.entries.every((entries) => entries.size === 0);
  }

  async flush(db: DbOrTx): Promise<void> {
    for (const statement of this.statements().reverse()) await db.execute(statement);
  }

  /** The upserts as SQL (not run), for callers that fold them into one statement; run them last first. */
  statements(_db?: DbOrTx): SQL[] {
    return GRAINS.flatMap((grain, index) => {
      const entries = [...this.entries[index].entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([, entry]) => entry);
      return entries.length ? [upsert(grain, entries, this.writer)] : [];
    });
  }

  private add(event: RollupFacts, increments: [RollupCounter, number][]) {
    const tags = [...new Set(event.tags)].sort();
    const tagSet = arrayLiteral(tags);
    GRAINS.forEach((grain, index) => {
      const time = grain.timeOf(event.at);
      for (const tag of grain.isByTag ? tags : ['']) {
        const key = [
          event.accountId,
          tag,
          time.toISOString(),
          event.senderDomain,
          event.recipientDomain,
          grain.isByTag ? tagSet : '',
        ].join('\u0000');
        let entry = this.entries[index].get(key);
        if (!entry) {
          entry = {
            accountId: event.accountId,
            time,
            tag,
            senderDomain: event.senderDomain,
            recipientDomain: event.recipientDomain,
            tags: tagSet,
            counts: new Map(),
          };
          this.entries[index].set(key, entry);
        }
        for (const [column, amount] of increments) entry.counts.set(column, (entry.counts.get(column) ?? 0) + amount);
      }
    });
  }
}

/** `insert ... select from unnest(arrays) on conflict do update set c = c + excluded.c`, for the counters this batch touched. */
function upsert(grain: Grain, entries: Entry[], writer: number): SQL {
  const columns = grain.table as unknown as Record<string, PgColumn>;
  const touched = [...new Set(entries.flatMap((entry) => [...entry.counts.keys()]))].sort();
  const keyParts: [PgColumn, SQL][] = [
    [columns.accountId, sql`${sql.param(entries.map((entry) => entry.accountId))}::uuid[]`],
    [grain.time, sql`${sql.param(entries.map((entry) => entry.time.toISOString()))}::timestamptz[]`],
    [columns.senderDomain, sql`${sql.param(entries.map((entry) => entry.senderDomain))}::text[]`],
    [columns.recipientDomain, sql`${sql.param(entries.map((entry) => entry.recipientDomain))}::text[]`],
    [columns.writer, sql`${sql.param(entries.map(() => writer))}::smallint[]`],
  ];
  if (grain.isByTag) {
    keyParts.push([columns.tag, sql`${sql.param(entries.map((entry) => entry.tag))}::text[]`]);
    keyParts.push([columns.tags, sql`${sql.param(entries.map((entry) => entry.tags))}::text[]`]);
  }
  const counterParts: [PgColumn, SQL][] = touched.map((counter) => [
    columns[counter],
    sql`${sql.param(entries.map((entry) => entry.counts.get(counter) ?? 0))}::${sql.raw(columns[counter].getSQLType())}[]`,
  ]);
  const parts = [...keyParts, ...counterParts];
  const aliases = parts.map((_, index) => sql.raw(`c${index}`));
  // The tag set arrives as an array literal (text) and becomes text[] here.
  const selects = parts.map(([column], index) =>
    column === columns.tags ? sql`${aliases[index]}::text[]` : aliases[index],
  );
  const tableName = sql.identifier(getTableName(grain.table));
  const set = touched.map((counter) => {
    const name = sql.identifier(columns[counter].name);
    return sql`${name} = ${tableName}.${name} + excluded.${name}`;
  });
  return sql`insert into ${grain.table} (${sql.join(
    parts.map(([column]) => sql.identifier(column.name)),
    sql`, `,
  )}) select ${sql.join(selects, sql`, `)} from unnest(${sql.join(
    parts.map(([, values]) => values),
    sql`, `,
  )}) as t(${sql.join(aliases, sql`, `)}) on conflict (${sql.join(
    grain.conflict.map((column) => sql.identifier(column.name)),
    sql`, `,
  )}) do update set ${sql.join(set, sql`, `)}`;
}
