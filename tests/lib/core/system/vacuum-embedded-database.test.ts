import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { unsafeVacuumEmbeddedDatabase } from '@/lib/core/system/vacuum-embedded-database';
import type { Db } from '@/lib/db/client';
import { messages } from '@/lib/db/schema';
import { openMemoryDatabase, queuedMessage } from '../../../support/memory-database';

let db: Db;
beforeAll(async () => {
  db = await openMemoryDatabase();
}, 60_000);

/** A day of mail in miniature: rows queued, each claimed and delivered (two updates), then purged by retention. */
async function queueDeliverAndPurge() {
  await db.insert(messages).values(Array.from({ length: 1000 }, () => queuedMessage(null)));
  await db.execute(sql`update messages set lease_until = now() + interval '1 minute', locked_by = 'worker'`);
  await db.execute(
    sql`update messages set status = 'delivered', lease_until = null, locked_by = null, delivered_at = now()`,
  );
  await db.execute(sql`delete from messages`);
}

async function messagesBytes(): Promise<number> {
  const { rows } = (await db.execute(sql`select pg_total_relation_size('messages')::bigint as bytes`)) as unknown as {
    rows: { bytes: string }[];
  };
  return Number(rows[0].bytes);
}

describe('unsafeVacuumEmbeddedDatabase', () => {
  it('lets the messages table reuse the space of rows delivered and purged, which PGlite alone never does', async () => {
    // Without it (single-user PostgreSQL has no autovacuum), each batch takes new space.
    const sizes = [];
    for (let batch = 0; batch < 3; batch++) {
      await queueDeliverAndPurge();
      sizes.push(await messagesBytes());
    }
    expect(sizes[1]).toBeGreaterThan(sizes[0] * 1.5);
    expect(sizes[2]).toBeGreaterThan(sizes[1] * 1.2);

    // With it after each batch, as the periodic job runs, the table stops growing: one batch's room, reused.
    await unsafeVacuumEmbeddedDatabase(db, { analyze: true });
    const vacuumed = [];
    for (let batch = 0; batch < 4; batch++) {
      await queueDeliverAndPurge();
      await unsafeVacuumEmbeddedDatabase(db, { analyze: false });
      vacuumed.push(await messagesBytes());
    }
    expect(Math.max(...vacuumed)).toBeLessThanOrEqual(sizes[0]);
  });
});
