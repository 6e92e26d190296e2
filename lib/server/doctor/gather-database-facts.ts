import { existsSync } from 'node:fs';
import path from 'node:path';
import { createDnsLookup } from '@/lib/core/domains/dns-lookup';
import { unsafeReadDatabaseFacts, type DatabaseFacts } from '@/lib/core/system/read-database-facts';
import { openDatabase } from '@/lib/db/client';
import type { Config } from '../config-settings';
import { acquireDataDirLock } from '../data-dir-lock';

export type GatheredFacts =
  { kind: 'read'; facts: DatabaseFacts } | { kind: 'absent' } | { kind: 'unreachable'; error: string };

/**
 * The database's side of the checks, read without migrating or writing. On PGlite a running server
 * holds the database, so it is asked over the control socket; otherwise the database is opened here.
 */
export async function gatherDatabaseFacts(config: Config): Promise<GatheredFacts> {
  if (config.databaseUrl) return readLocally(config);
  const hasDatabase = existsSync(path.join(config.dataDir, 'pglite', 'PG_VERSION'));
  if (!existsSync(config.dataDir)) return { kind: 'absent' };
  const lock = acquireDataDirLock(config.dataDir);
  if ('heldBy' in lock) {
    const { sendControlCommand } = await import('../control-socket');
    try {
      const response = await sendControlCommand(config.dataDir, { command: 'doctor.database', args: {} });
      if (!response.ok)
        return { kind: 'unreachable', error: `the running server (pid ${lock.heldBy}) answered: ${response.message}` };
      return { kind: 'read', facts: response.result as DatabaseFacts };
    } catch (error) {
      return {
        kind: 'unreachable',
        error: `a Mailstead server (pid ${lock.heldBy}) holds ${config.dataDir} but its control socket did not answer: ${(error as Error).message}`,
      };
    }
  }
  try {
    return hasDatabase ? await readLocally(config) : { kind: 'absent' };
  } finally {
    lock.release();
  }
}

async function readLocally(config: Config): Promise<GatheredFacts> {
  let database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, databasePoolSize: 2 });
  } catch (error) {
    return { kind: 'unreachable', error: (error as Error).message };
  }
  try {
    const dns = createDnsLookup({ servers: config.dnsServers, timeoutMs: config.dns.timeoutMs });
    return {
      kind: 'read',
      facts: await unsafeReadDatabaseFacts({ db: database.db, dns, config, now: () => new Date() }),
    };
  } finally {
    await database.close();
  }
}
