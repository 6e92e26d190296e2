import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';

/**
 * PGlite runs PostgreSQL in single-user mode, which has no autovacuum (PostgreSQL's own background
 * worker): a row that is updated or deleted leaves its old version, and its index entries, for good,
 * and the free space is never reused. Measured on PGlite, a delivery claim's index scan walked every
 * message ever queued: 6 ms per claim of 200 after 5,000 messages, 23 ms after 60,000, 4 ms again
 * after one VACUUM; and the messages table only grew, whatever retention deleted.
 *
 * VACUUM walks only the pages changed since the last one (the visibility map), so a frequent one is
 * short; it holds the database's thread while it runs. ANALYZE (planner statistics) reads a sample
 * of every table, so it runs less often. PostgreSQL's autovacuum does both there: this is PGlite's.
 */
export async function unsafeVacuumEmbeddedDatabase(db: Db, options: { analyze: boolean }): Promise<void> {
  await db.execute(options.analyze ? sql`vacuum (analyze)` : sql`vacuum`);
}
