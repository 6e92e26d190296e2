import { loadavg, tmpdir } from 'node:os';
import { sql } from 'drizzle-orm';
import { countSegmentContacts, segmentWhere } from '@/lib/core/segments/internal/segment-contacts';
import type { SegmentFilter } from '@/lib/core/segments/schemas';
import { openDatabase } from '@/lib/db/client';
import { migrateDatabase } from '@/lib/db/migrate';
import { createScratchDatabase } from '../e2e/support/postgres';
import { POSTGRES_URL, percentile } from './bench-support';

/**
 * `count` of typical segment filters over one account of BENCH_SEGMENT_CONTACTS (1,000,000)
 * contacts with attributes, a list of a third of them and engagement for a fifth, on PostgreSQL:
 * the same statement GET /segments/{id} runs (segmentWhere + countSegmentContacts), target < 1 s.
 * Seeded with generate_series straight into a scratch database; PGlite is not measured at this size.
 */
const CONTACTS = Number(process.env.BENCH_SEGMENT_CONTACTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_SEGMENT_RUNS ?? 5);

export type SegmentsResult = {
  contacts: number;
  seedSeconds: number;
  filters: { name: string; count: number; p50: number; max: number }[];
  load: number[];
};

export async function runSegmentsBench(): Promise<SegmentsResult> {
  const scratch = await createScratchDatabase(POSTGRES_URL, 'mailstead_bench_segments');
  const database = await openDatabase({ databaseUrl: scratch.url, dataDir: tmpdir(), databasePoolSize: 4 });
  try {
    await migrateDatabase(database);
    const { db } = database;
    const accountId = '01a20000-0000-7000-8000-0000000000a1';
    const listId = '01a20000-0000-7000-8000-0000000000b1';
    const started = performance.now();
    const ownerId = '01a20000-0000-7000-8000-0000000000c1';
    await db.execute(sql`insert into users (id, email, password_hash) values (${ownerId}, 'owner@example.org', 'x')`);
    await db.execute(
      sql`insert into accounts (id, owner_id, name) values (${accountId}, ${ownerId}, 'Segments bench')`,
    );
    await db.execute(sql`insert into contact_attribute_definitions (account_id, key, type) values
      (${accountId}, 'age', 'number'), (${accountId}, 'plan', 'string'), (${accountId}, 'vip', 'boolean')`);
    await db.execute(sql`insert into contact_lists (id, account_id, name) values (${listId}, ${accountId}, 'Third')`);
    // A second account of the same size would only add rows the account index skips.
    await db.execute(sql`
      insert into contacts (id, account_id, email, first_name, attributes, created_at, updated_at)
      select gen_random_uuid(), ${accountId}, 'c' || n || '@example.org', 'Name' || (n % 1000),
        jsonb_build_object('age', n % 90, 'plan', (array['free','silver','gold'])[1 + n % 3], 'vip', n % 10 = 0),
        now() - (n % 1000) * interval '1 hour', now()
      from generate_series(1, ${CONTACTS}) as n`);
    await db.execute(sql`
      insert into list_memberships (list_id, contact_id, account_id, subscription_status)
      select ${listId}, id, account_id, 'confirmed' from contacts where account_id = ${accountId} and abs(hashtext(email)) % 3 = 0`);
    await db.execute(sql`
      insert into contact_engagement (contact_id, account_id, last_received_at, last_opened_at)
      select id, account_id, now() - (abs(hashtext(email)) % 90) * interval '1 day',
        case when abs(hashtext(email)) % 2 = 0 then now() - (abs(hashtext(email)) % 60) * interval '1 day' end
      from contacts where account_id = ${accountId} and abs(hashtext(email)) % 5 = 0`);
    await db.execute(sql`analyze`);
    const seedSeconds = (performance.now() - started) / 1000;

    const filters: [string, SegmentFilter][] = [
      ['attribute number gt (age > 60)', { all: [{ field: 'attributes.age', op: 'gt', value: 60 }] }],
      ['attribute string eq (plan = gold)', { all: [{ field: 'attributes.plan', op: 'eq', value: 'gold' }] }],
      ['list membership (confirmed)', { all: [{ list: listId, status: 'confirmed' }] }],
      ['engagement opened within 30 days', { all: [{ engagement: 'opened', within_days: 30 }] }],
      [
        'all of: plan = gold, in the list, not opened in 30 days',
        {
          all: [
            { field: 'attributes.plan', op: 'eq', value: 'gold' },
            { list: listId, status: 'confirmed' },
            { engagement: 'not_opened', within_days: 30 },
          ],
        },
      ],
    ];
    const results: SegmentsResult['filters'] = [];
    for (const [name, filter] of filters) {
      const where = await segmentWhere(db, accountId, filter);
      const times: number[] = [];
      let count = 0;
      for (let run = 0; run < RUNS; run++) {
        const at = performance.now();
        count = await countSegmentContacts(db, where);
        times.push(performance.now() - at);
      }
      results.push({ name, count, p50: percentile(times, 50), max: Math.max(...times) });
    }
    return { contacts: CONTACTS, seedSeconds, filters: results, load: loadavg() };
  } finally {
    await database.close();
    await scratch.drop();
  }
}

export function printSegmentsResults(result: SegmentsResult): void {
  console.log(
    `\nsegments: count over ${result.contacts.toLocaleString('en')} contacts on PostgreSQL (seeded in ${result.seedSeconds.toFixed(0)} s; load ${result.load.map((value) => value.toFixed(2)).join(' ')})`,
  );
  for (const filter of result.filters)
    console.log(
      `  ${filter.name.padEnd(58)} ${String(filter.count).padStart(8)} contacts  p50 ${filter.p50.toFixed(0)} ms  max ${filter.max.toFixed(0)} ms`,
    );
}
