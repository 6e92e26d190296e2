import { existsSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '@/lib/db/client';
import { AppError, conflict } from '@/lib/shared/errors';
import type { Config } from '../config-settings';
import { acquireDataDirLock } from '../data-dir-lock';
import { StartupError } from '../startup-error';
import { createBackup, type BackupResult } from './create-backup';

/**
 * Where `mailstead backup` runs: on PGlite, in the running server that holds the database (over the
 * control socket, so the dump is taken between its statements) or else here, under the data
 * directory's lock; on PostgreSQL always here, through pg_dump. Nothing is migrated or written.
 */
export async function runBackup(config: Config, args: { file: string; force: boolean }): Promise<BackupResult> {
  if (config.databaseUrl) return backUpHere(config, args);
  if (!existsSync(path.join(config.dataDir, 'pglite', 'PG_VERSION')))
    throw conflict(`no database in ${config.dataDir} (DATA_DIR): nothing to back up`);
  const lock = acquireDataDirLock(config.dataDir);
  if ('heldBy' in lock) {
    const { sendControlCommand } = await import('../control-socket');
    const response = await sendControlCommand(config.dataDir, { command: 'backup.create', args }).catch(
      (error: Error) => {
        throw new StartupError(
          `a Mailstead server (pid ${lock.heldBy}) holds ${config.dataDir} but its control socket did not answer: ${error.message}`,
        );
      },
    );
    if (!response.ok)
      throw new AppError(response.kind === 'usage' ? 'invalid_input' : (response.kind as never), response.message);
    return response.result as BackupResult;
  }
  try {
    return await backUpHere(config, args);
  } finally {
    lock.release();
  }
}

async function backUpHere(config: Config, args: { file: string; force: boolean }): Promise<BackupResult> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    databasePoolSize: 2,
  });
  try {
    return await createBackup(database, config, args);
  } finally {
    await database.close();
  }
}
