import { sql } from 'drizzle-orm';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import type { Database, Db } from './client';
import { MIGRATIONS_FOLDER } from './client';

// Any fixed number: every Mailstead process migrating the same database contends for this lock.
const MIGRATION_LOCK_ID = 727_001;

/** The part of drizzle's transaction object that its own migrator uses (drizzle-orm 0.45). */
type MigratingTransaction = {
  dialect: {
    migrate(migrations: MigrationMeta[], session: unknown, config: { migrationsFolder: string }): Promise<void>;
  };
  session: unknown;
};

/**
 * Applies pending migrations; several processes starting at once apply them exactly once. The lock
 * is transaction-level (pg_advisory_xact_lock) and drizzle's migrator runs inside that transaction:
 * a session-level lock taken and released by separate statements leaks through a transaction-mode
 * pooler (PgBouncer) and blocks the next start until the pooler closes that server connection.
 */
export async function migrateDatabase(database: Database): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_FOLDER };
  if (database.kind === 'pglite') {
    // One process opens the embedded database (the data-directory lock): nobody to wait for.
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    return migrate(database.db as never, config);
  }
  const migrations = readMigrationFiles(config);
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    const migrating = tx as unknown as MigratingTransaction;
    await migrating.dialect.migrate(migrations, migrating.session, config);
  });
}

let shippedLatest: number | null = null;

/**
 * Whether the database has every migration this code ships (drizzle records each by its folder
 * time; a newer process may have applied later ones, which is fine). Read for /readyz.
 */
export async function hasShippedMigrations(db: Db): Promise<boolean> {
  if (shippedLatest === null) {
    shippedLatest = Math.max(
      0,
      ...readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((migration) => migration.folderMillis),
    );
  }
  const result = await db.execute(sql`select max(created_at)::text as latest from drizzle.__drizzle_migrations`);
  const latest = (result as unknown as { rows: { latest: string | null }[] }).rows[0]?.latest;
  return latest !== null && latest !== undefined && Number(latest) >= shippedLatest;
}
