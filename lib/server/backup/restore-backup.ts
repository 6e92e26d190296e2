import { existsSync, mkdtempSync, openAsBlob, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { openDatabase } from '@/lib/db/client';
import { SecretBox } from '@/lib/shared/crypto';
import { conflict, invalidInput } from '@/lib/shared/errors';
import { restrictToOwner, useOwnerOnlyUmask } from '@/lib/shared/file-modes';
import type { Config } from '../config-settings';
import { acquireDataDirLock } from '../data-dir-lock';
import { readMasterKey } from '../master-key';
import { migrationLabel, shippedMigrations, type BackupManifest } from './backup-manifest';
import { readBackupArchive } from './read-backup-archive';
import { runPostgresTool } from './run-postgres-tool';

export const restoreBackupSchema = z.object({
  file: z
    .string()
    .min(1)
    .max(4096)
    .refine((file) => path.isAbsolute(file), 'file must be an absolute path'),
});

export type RestoreResult = {
  file: string;
  target: string;
  database: BackupManifest['database'];
  migration: BackupManifest['migration'];
  created_at: string;
};

/**
 * `mailstead restore FILE`, as ordered steps: read and check the file, check that this version and
 * this master key can run it, then load it into a target that holds no database (the configured
 * DATA_DIR, or DATABASE_URL's database). Every refusal comes before the target is touched.
 */
export async function restoreBackup(config: Config, args: Record<string, unknown>): Promise<RestoreResult> {
  const parsed = restoreBackupSchema.safeParse(args);
  if (!parsed.success) throw invalidInput(parsed.error.issues[0].message);
  const { file } = parsed.data;
  const stagingDir = mkdtempSync(path.join(os.tmpdir(), 'mailstead-restore-'));
  try {
    const { manifest, dumpFile } = await readBackupArchive(file, stagingDir);
    checkDatabaseKind(config, manifest);
    checkMigrationIsKnown(manifest);
    checkMasterKey(config, manifest);
    const target = config.databaseUrl
      ? await restorePostgres(config.databaseUrl, dumpFile, manifest)
      : await restorePglite(config.dataDir, dumpFile, manifest);
    return {
      file,
      target,
      database: manifest.database,
      migration: manifest.migration,
      created_at: manifest.created_at,
    };
  } finally {
    rmSync(stagingDir, { recursive: true, force: true });
  }
}

function checkDatabaseKind(config: Config, manifest: BackupManifest) {
  if (config.databaseUrl && manifest.database === 'pglite') {
    throw conflict(
      'this backup is of the embedded database (PGlite): restore it without DATABASE_URL, into a new DATA_DIR',
    );
  }
  if (!config.databaseUrl && manifest.database === 'postgres') {
    throw conflict('this backup is of a PostgreSQL database: set DATABASE_URL to an empty database to restore it into');
  }
}

function checkMigrationIsKnown(manifest: BackupManifest) {
  const latest = shippedMigrations().at(-1);
  if (latest && manifest.migration.id > latest.id) {
    throw conflict(
      `this backup was made by a newer Mailstead (${manifest.mailstead_version}, database at migration ${migrationLabel(manifest.migration)}; this version knows up to ${latest.name}): restore it with that version or a later one`,
    );
  }
}

/** The key this environment would run under must be the one the backup's secrets were encrypted with. */
function checkMasterKey(config: Config, manifest: BackupManifest) {
  const source = config.secretFromEnv ? 'MAILSTEAD_SECRET' : `${path.join(config.dataDir, 'master.key')}`;
  const howTo =
    "set MAILSTEAD_SECRET to the key the backup was made under, or copy that installation's master.key into DATA_DIR (mode 0600)";
  let key: Buffer | null;
  try {
    key = readMasterKey(config);
  } catch (error) {
    throw conflict(`${(error as Error).message}: ${howTo}`);
  }
  if (!key)
    throw conflict(
      `no master key here (no MAILSTEAD_SECRET, no ${source}), and the backup's secrets are encrypted under the key with fingerprint ${manifest.master_key_fingerprint}: ${howTo}`,
    );
  const fingerprint = new SecretBox(key).fingerprint();
  if (fingerprint !== manifest.master_key_fingerprint) {
    throw conflict(
      `master key fingerprint mismatch: the key here (${source}) has fingerprint ${fingerprint}, the backup was made under ${manifest.master_key_fingerprint}; nothing was restored: ${howTo}`,
    );
  }
}

/** Into DATA_DIR/pglite, which must not exist yet: unpacked beside it, checked, then moved into place. */
async function restorePglite(dataDir: string, dumpFile: string, manifest: BackupManifest): Promise<string> {
  const target = path.join(dataDir, 'pglite');
  const lock = acquireDataDirLock(dataDir);
  if ('heldBy' in lock)
    throw conflict(
      `a Mailstead server (pid ${lock.heldBy}) is running on ${dataDir}: stop it, and restore into a data directory that holds no database`,
    );
  // Checked under the lock, so that no server can start a database there meanwhile.
  if (existsSync(target) && readdirSync(target).length > 0) {
    lock.release();
    throw conflict(
      `${dataDir} already holds a database (${target}): restore into a new DATA_DIR, or move that folder away first`,
    );
  }
  const unpacking = path.join(dataDir, `.pglite-restoring-${process.pid}`);
  try {
    useOwnerOnlyUmask();
    rmSync(unpacking, { recursive: true, force: true });
    const { loadPgliteDataDir } = await import('@/lib/db/load-pglite-data-dir');
    const loaded = await loadPgliteDataDir(unpacking, await openAsBlob(dumpFile));
    if (loaded.masterKeyFingerprint !== manifest.master_key_fingerprint) {
      throw conflict(
        `the backup's database was written under master key ${loaded.masterKeyFingerprint}, not the ${manifest.master_key_fingerprint} its manifest names: nothing was restored`,
      );
    }
    restrictToOwner(unpacking);
    // An empty folder only (rmdir refuses anything else): a database found there is never deleted.
    if (existsSync(target)) rmdirSync(target);
    renameSync(unpacking, target);
    return dataDir;
  } finally {
    rmSync(unpacking, { recursive: true, force: true });
    lock.release();
  }
}

/** Into DATABASE_URL's database, which must hold no tables: pg_restore in one transaction, all or nothing. */
async function restorePostgres(databaseUrl: string, dumpFile: string, manifest: BackupManifest): Promise<string> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
  const database = await openDatabase({ databaseUrl, dataDir: '', databasePoolSize: 1 });
  try {
    const tables = (await database.db.execute(
      sql`select count(*)::int as count from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
    )) as unknown as { rows: { count: number }[] };
    const count = tables.rows[0].count;
    if (count > 0)
      throw conflict(
        `the database ${name} (DATABASE_URL) already holds ${count} table(s): restore only into an empty database (createdb a new one and point DATABASE_URL at it)`,
      );
    // An empty URI: libpq takes host, database and password from the PG* variables runPostgresTool sets,
    // so neither a secret nor a database name is written into an argument libpq would parse.
    await runPostgresTool(
      'pg_restore',
      ['--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges', '--dbname=postgresql://', dumpFile],
      databaseUrl,
    );
    const stored = (await database.db.execute(
      sql`select value from settings where key = 'master_key_fingerprint'`,
    )) as unknown as { rows: { value: string }[] };
    if (stored.rows[0]?.value !== manifest.master_key_fingerprint) {
      throw conflict(
        `the restored database names master key ${stored.rows[0]?.value ?? 'none'}, not the ${manifest.master_key_fingerprint} of the manifest: the backup was altered; drop the database ${name}`,
      );
    }
    return name;
  } finally {
    await database.close();
  }
}
