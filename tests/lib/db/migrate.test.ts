import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, type Database, type Db } from '@/lib/db/client';
import { hasShippedMigrations, migrateDatabase } from '@/lib/db/migrate';
import { openMemoryDatabase } from '../../support/memory-database';
import { pgliteOptions } from '@/lib/db/pglite-options';
import * as schema from '@/lib/db/schema';

const journalEntries = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')).entries
  .length as number;

async function appliedCount(db: Db): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return (result as unknown as { rows: { n: number }[] }).rows[0].n;
}

describe('migrateDatabase', () => {
  it('applies every migration once on PGlite; a second run changes nothing', async () => {
    const client = new PGlite(pgliteOptions());
    const db = drizzlePglite({ client, schema }) as unknown as Db;
    const database: Database = {
      db,
      foregroundDb: db,
      kind: 'pglite',
      poolUse: () => null,
      close: () => client.close(),
    };
    await migrateDatabase(database);
    await migrateDatabase(database);
    expect(await appliedCount(database.db)).toBe(journalEntries);
    await database.close();
  }, 60_000);
});

const adminUrl = process.env.MAILSTEAD_TEST_POSTGRES_URL;

describe.skipIf(!adminUrl)('migrateDatabase on PostgreSQL', () => {
  const databaseName = `mailstead_migrate_${process.pid}_${Date.now()}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(query);
    await client.end();
  };
  beforeAll(() => admin(`create database "${databaseName}"`), 30_000);
  afterAll(() => admin(`drop database if exists "${databaseName}" with (force)`));

  it('three processes at once apply each migration once and leave no advisory lock behind', async () => {
    const url = new URL(adminUrl!);
    url.pathname = `/${databaseName}`;
    const pools = [1, 2, 3].map(() => new pg.Pool({ connectionString: url.toString(), max: 4 }));
    const databases: Database[] = pools.map((pool) => {
      const db = drizzlePostgres({ client: pool, schema }) as unknown as Db;
      return { db, foregroundDb: db, kind: 'postgres', poolUse: () => null, close: () => pool.end() };
    });
    try {
      await Promise.all(databases.map((database) => migrateDatabase(database)));
      expect(await appliedCount(databases[0].db)).toBe(journalEntries);
      const locks = await pools[0].query(
        `select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
      );
      expect(locks.rows[0].n).toBe(0);
    } finally {
      await Promise.all(databases.map((database) => database.close()));
    }
  }, 60_000);
});

describe('hasShippedMigrations', () => {
  it('is true with every migration applied, false when the database lacks the latest', async () => {
    const db = await openMemoryDatabase();
    expect(await hasShippedMigrations(db)).toBe(true);
    await db.execute(
      sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
    );
    expect(await hasShippedMigrations(db)).toBe(false);
    await db.execute(sql`delete from drizzle.__drizzle_migrations`);
    expect(await hasShippedMigrations(db)).toBe(false);
  }, 120_000);
});
