import type { Database } from './client';
import { MIGRATIONS_FOLDER } from './client';

// Any fixed number: every Mailstead process migrating the same database contends for this lock.
const MIGRATION_LOCK_ID = 727_001;

/** Applies pending migrations; several processes starting at once apply them exactly once. */
export async function migrateDatabase(database: Database): Promise<void> {
  await database.withAdvisoryLock(MIGRATION_LOCK_ID, async (db) => {
    if (database.kind === 'pglite') {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    } else {
      const { migrate } = await import('drizzle-orm/node-postgres/migrator');
      await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    }
  });
}
