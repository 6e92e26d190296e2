import { sql } from 'drizzle-orm';
import type { Database, Db } from './client';
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

let shippedLatest: number | null = null;

/**
 * Whether the database has every migration this code ships (drizzle records each by its folder
 * time; a newer process may have applied later ones, which is fine). Read for /readyz.
 */
export async function hasShippedMigrations(db: Db): Promise<boolean> {
  if (shippedLatest === null) {
    const { readMigrationFiles } = await import('drizzle-orm/migrator');
    shippedLatest = Math.max(0, ...readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((migration) => migration.folderMillis));
  }
  const result = await db.execute(sql`select max(created_at)::text as latest from drizzle.__drizzle_migrations`);
  const latest = (result as unknown as { rows: { latest: string | null }[] }).rows[0]?.latest;
  return latest !== null && latest !== undefined && Number(latest) >= shippedLatest;
}
