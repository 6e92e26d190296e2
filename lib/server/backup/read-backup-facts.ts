import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { conflict } from '@/lib/shared/errors';
import { shippedMigrations, type BackupMigration } from './backup-manifest';

type Rows<T> = { rows: T[] };

export type BackupFacts = { migration: BackupMigration; masterKeyFingerprint: string; databaseVersion: string };

/**
 * What the manifest says of the database: its latest migration, the fingerprint of the key its
 * secrets are encrypted with, its server version. A database no server has started yet has neither.
 */
export async function readBackupFacts(db: Db): Promise<BackupFacts> {
  const tables = (await db.execute(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as has_migrations, to_regclass('public.settings') is not null as has_settings, version() as version`,
  )) as unknown as Rows<{ has_migrations: boolean; has_settings: boolean; version: string }>;
  const { has_migrations: hasMigrations, has_settings: hasSettings, version } = tables.rows[0];
  const notStarted = conflict(
    'the database has not been set up yet (no server has started on it): there is nothing to back up',
  );
  if (!hasMigrations || !hasSettings) throw notStarted;
  const latest = (await db.execute(
    sql`select created_at::text as id, hash from drizzle.__drizzle_migrations order by created_at desc limit 1`,
  )) as unknown as Rows<{ id: string; hash: string }>;
  const fingerprint = (await db.execute(
    sql`select value from settings where key = 'master_key_fingerprint'`,
  )) as unknown as Rows<{ value: string }>;
  if (!latest.rows[0] || !fingerprint.rows[0]) throw notStarted;
  const id = Number(latest.rows[0].id);
  const name = shippedMigrations().find((migration) => migration.id === id)?.name ?? null;
  return {
    migration: { id, hash: latest.rows[0].hash, name },
    masterKeyFingerprint: fingerprint.rows[0].value,
    databaseVersion: version,
  };
}
