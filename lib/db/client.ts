import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { ensurePrivateDir, restrictToOwner, useOwnerOnlyUmask } from '@/lib/shared/file-modes';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Functions that can run inside or outside a transaction take this. */
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  /**
   * The same database for work a client waits on (API requests, SMTP sessions). On PGlite its
   * statements go before the background loops' (PriorityGate, on the database's thread); on PostgreSQL it is `db`.
   */
  foregroundDb: Db;
  kind: 'pglite' | 'postgres';
  /** The pool's connections (PostgreSQL); null on PGlite, which has one connection and no pool. */
  poolUse(): { total: number; idle: number; waiting: number } | null;
  /** PGlite only: a consistent copy of the data directory, as a tarball (`mailstead backup`). */
  dumpDataDir?: () => Promise<Uint8Array>;
  close(): Promise<void>;
};

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Embedded PostgreSQL (PGlite) in `dataDir/pglite`, on a thread of its own: one process, nothing to install. */
async function openPglite(dataDir: string): Promise<Database> {
  const { drizzle } = await import('drizzle-orm/pglite');
  const { openPgliteThread } = await import('./open-pglite-thread');
  const dir = path.join(dataDir, 'pglite');
  // The database holds message bodies and key hashes: owner only, from the CLI as from the server.
  useOwnerOnlyUmask();
  ensurePrivateDir(dir);
  const isNew = !existsSync(path.join(dir, 'PG_VERSION'));
  const thread = await openPgliteThread(dir);
  // PGlite unpacks its initial files with mode 0666 whatever the umask (files it creates later follow it).
  if (isNew) restrictToOwner(dir);
  return {
    db: drizzle({ client: thread.background, schema }) as unknown as Db,
    foregroundDb: drizzle({ client: thread.foreground, schema }) as unknown as Db,
    kind: 'pglite',
    poolUse: () => null,
    dumpDataDir: () => thread.dumpDataDir(),
    close: () => thread.close(),
  };
}

/** A real PostgreSQL server through a connection pool; any number of processes can share it. */
async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  // A connect that hangs (a host gone without a reset, a full backlog) fails after 10 s and is
  // answered as an outage (503 / 451), instead of holding a request and a pool slot forever.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 10_000, keepAlive: true });
  // A broken idle connection must not take the process down; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzle({ client: pool, schema }) as unknown as Db;
  await pool.query('select 1');
  return {
    db,
    foregroundDb: db,
    kind: 'postgres',
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await pool.end();
    },
  };
}

export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
  databasePoolSize?: number;
}): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.databasePoolSize ?? 20)
    : openPglite(options.dataDir);
}
