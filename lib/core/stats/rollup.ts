import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { statsBouncesHourly, statsHourly, statsTagsHourly } from '@/lib/db/schema';

export type Counter = 'reception' | 'delivered' | 'deferred' | 'bounced' | 'failed' | 'suppressed' | 'opened' | 'clicked';

type Counts = Record<Counter, number> & { deliveryTimeSumMs: number; deliveryTimeCount: number };

const emptyCounts = (): Counts => ({ reception: 0, delivered: 0, deferred: 0, bounced: 0, failed: 0, suppressed: 0, opened: 0, clicked: 0, deliveryTimeSumMs: 0, deliveryTimeCount: 0 });

/** `table.column + excluded.column`, qualified: inside ON CONFLICT a bare name is ambiguous. */
const adder = (table: Parameters<typeof getTableName>[0]) => (column: { name: string }) => sql.raw(`"${getTableName(table)}"."${column.name}" + excluded."${column.name}"`);

export const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);

/**
 * Statistics counters summed in memory for one batch of changes, then written with one upsert per
 * table in the same transaction as the events they count.
 */
export class Rollup {
  private readonly byDomain = new Map<string, { key: [string, Date, string, string]; counts: Counts }>();
  private readonly byTag = new Map<string, { key: [string, Date, string, string]; counts: Counts }>();
  private readonly bounces = new Map<string, { key: [string, Date, string, string, string]; count: number }>();

  count(event: { accountId: string; at: Date; senderDomain: string; recipientDomain: string; tags: readonly string[] }, counter: Counter, deliveryMs?: number) {
    const hour = hourOf(event.at);
    const bump = (counts: Counts) => {
      counts[counter] += 1;
      if (deliveryMs !== undefined) {
        counts.deliveryTimeSumMs += Math.max(0, Math.round(deliveryMs));
        counts.deliveryTimeCount += 1;
      }
    };
    const domainKey = `${event.accountId}|${hour.toISOString()}|${event.senderDomain}|${event.recipientDomain}`;
    const domainEntry = this.byDomain.get(domainKey) ?? { key: [event.accountId, hour, event.senderDomain, event.recipientDomain] as [string, Date, string, string], counts: emptyCounts() };
    bump(domainEntry.counts);
    this.byDomain.set(domainKey, domainEntry);
    for (const tag of new Set(event.tags)) {
      const tagKey = `${event.accountId}|${hour.toISOString()}|${tag}|${event.senderDomain}`;
      const tagEntry = this.byTag.get(tagKey) ?? { key: [event.accountId, hour, tag, event.senderDomain] as [string, Date, string, string], counts: emptyCounts() };
      bump(tagEntry.counts);
      this.byTag.set(tagKey, tagEntry);
    }
  }

  countBounce(event: { accountId: string; at: Date; senderDomain: string; recipientDomain: string }, classification: string) {
    const hour = hourOf(event.at);
    const key = `${event.accountId}|${hour.toISOString()}|${event.senderDomain}|${event.recipientDomain}|${classification}`;
    const entry = this.bounces.get(key) ?? { key: [event.accountId, hour, event.senderDomain, event.recipientDomain, classification] as [string, Date, string, string, string], count: 0 };
    entry.count += 1;
    this.bounces.set(key, entry);
  }

  get isEmpty() {
    return this.byDomain.size === 0 && this.bounces.size === 0;
  }

  async flush(db: DbOrTx): Promise<void> {
    for (const statement of this.statements(db)) await db.execute(statement);
  }

  /** The upserts as SQL (built with `db`, not run), for callers that fold them into one statement. */
  statements(db: DbOrTx): SQL[] {
    const statements: SQL[] = [];
    const counterSet = (table: typeof statsHourly | typeof statsTagsHourly) => {
      const add = adder(table);
      return {
        reception: add(table.reception),
        delivered: add(table.delivered),
        deferred: add(table.deferred),
        bounced: add(table.bounced),
        failed: add(table.failed),
        suppressed: add(table.suppressed),
        opened: add(table.opened),
        clicked: add(table.clicked),
        deliveryTimeSumMs: add(table.deliveryTimeSumMs),
        deliveryTimeCount: add(table.deliveryTimeCount),
      };
    };
    if (this.byDomain.size) {
      statements.push(
        db
          .insert(statsHourly)
          .values([...this.byDomain.values()].map(({ key: [accountId, hour, senderDomain, recipientDomain], counts }) => ({ accountId, hour, senderDomain, recipientDomain, ...counts })))
          .onConflictDoUpdate({ target: [statsHourly.accountId, statsHourly.hour, statsHourly.senderDomain, statsHourly.recipientDomain], set: counterSet(statsHourly) })
          .getSQL(),
      );
    }
    if (this.byTag.size) {
      statements.push(
        db
          .insert(statsTagsHourly)
          .values([...this.byTag.values()].map(({ key: [accountId, hour, tag, senderDomain], counts }) => ({ accountId, hour, tag, senderDomain, ...counts })))
          .onConflictDoUpdate({ target: [statsTagsHourly.accountId, statsTagsHourly.hour, statsTagsHourly.tag, statsTagsHourly.senderDomain], set: counterSet(statsTagsHourly) })
          .getSQL(),
      );
    }
    if (this.bounces.size) {
      statements.push(
        db
          .insert(statsBouncesHourly)
          .values([...this.bounces.values()].map(({ key: [accountId, hour, senderDomain, recipientDomain, classification], count }) => ({ accountId, hour, senderDomain, recipientDomain, classification, count })))
          .onConflictDoUpdate({
            target: [statsBouncesHourly.accountId, statsBouncesHourly.hour, statsBouncesHourly.senderDomain, statsBouncesHourly.recipientDomain, statsBouncesHourly.classification],
            set: { count: adder(statsBouncesHourly)(statsBouncesHourly.count) },
          })
          .getSQL(),
      );
    }
    return statements;
  }
}
