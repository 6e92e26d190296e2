import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Database } from '@/lib/db/client';
import { conflict, invalidInput } from '@/lib/shared/errors';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  DUMP_ENTRY,
  mailsteadVersion,
  type BackupManifest,
} from './backup-manifest';
import { readBackupFacts } from './read-backup-facts';
import { runPostgresTool } from './run-postgres-tool';
import { describeDump, refuseOverwrite, writeBackupArchive } from './write-backup-archive';

export const createBackupSchema = z.object({
  /** Absolute: the CLI resolves it against its own directory, the server's may differ. */
  file: z
    .string()
    .min(1)
    .max(4096)
    .refine((file) => path.isAbsolute(file), 'file must be an absolute path'),
  force: z.boolean().default(false),
});

export type BackupResult = {
  file: string;
  bytes: number;
  database: BackupManifest['database'];
  migration: BackupManifest['migration'];
  master_key_fingerprint: string;
  created_at: string;
};

/**
 * `mailstead backup FILE`: a consistent dump of the database (PGlite's data directory taken between
 * statements, or pg_dump's snapshot) with its manifest, in one file. Runs where the database is open:
 * in the running server (over the control socket) or in the CLI.
 */
export async function createBackup(
  database: Database,
  where: { databaseUrl: string | null; dataDir: string },
  args: Record<string, unknown>,
): Promise<BackupResult> {
  const { databaseUrl } = where;
  const parsed = createBackupSchema.safeParse(args);
  if (!parsed.success) throw invalidInput(parsed.error.issues[0].message);
  const { file, force } = parsed.data;
  if (!force && existsSync(file)) throw refuseOverwrite(file);
  if (!existsSync(path.dirname(file)))
    throw invalidInput(`${path.dirname(file)} does not exist: make the folder first`);
  // The server writes FILE with its own rights: never over its master key, certificate or database.
  if (isInside(where.dataDir, path.dirname(file)))
    throw conflict(`${file} is inside the data directory ${where.dataDir}: keep backups elsewhere`);
  // Staged beside the target (mode 0700): on its file system, so the finished file is moved, not copied.
  const stagingDir = unwritable(file, () => mkdtempSync(path.join(path.dirname(file), '.mailstead-backup-')));
  try {
    const facts = await readBackupFacts(database.db);
    const entry = DUMP_ENTRY[database.kind];
    const dumpFile = path.join(stagingDir, entry);
    if (database.kind === 'pglite') {
      if (!database.dumpDataDir) throw new Error('this database cannot be dumped');
      const tarball = await database.dumpDataDir();
      unwritable(file, () => writeFileSync(dumpFile, tarball, { mode: 0o600 }));
    } else {
      // Custom format, uncompressed: the backup file is gzipped as a whole.
      await runPostgresTool('pg_dump', ['--format=custom', '--compress=0', `--file=${dumpFile}`], databaseUrl ?? '');
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      format_version: BACKUP_FORMAT_VERSION,
      mailstead_version: mailsteadVersion(),
      database: database.kind,
      database_version: facts.databaseVersion,
      migration: facts.migration,
      master_key_fingerprint: facts.masterKeyFingerprint,
      created_at: new Date().toISOString(),
      dump: { entry, ...(await describeDump(dumpFile)) },
    };
    const { bytes } = await writeBackupArchive(stagingDir, manifest, file, { force });
    return {
      file,
      bytes,
      database: manifest.database,
      migration: manifest.migration,
      master_key_fingerprint: manifest.master_key_fingerprint,
      created_at: manifest.created_at,
    };
  } finally {
    rmSync(stagingDir, { recursive: true, force: true });
  }
}

/** A folder the server's user may not write, or a full disk: the operator's to fix, said plainly. */
function unwritable<T>(file: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'ENOSPC')
      throw conflict(`cannot write ${file} (${code}): ${(error as Error).message}`);
    throw error;
  }
}

function isInside(dir: string, candidate: string): boolean {
  if (!existsSync(dir)) return false;
  const relative = path.relative(realpathSync(dir), realpathSync(candidate));
  return !relative.startsWith('..') && !path.isAbsolute(relative);
}
