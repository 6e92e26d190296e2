import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@/lib/server/logger';

const SENTINEL = 'sentinel-9f2c-owner@example.com';

/** A logger writing into an array of lines. */
function capturingLogger() {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines };
}

type Execute = (query: ReturnType<typeof sql>) => Promise<unknown>;

function failingQueries(name: string, open: () => Promise<{ execute: Execute; close: () => Promise<void> }>) {
  describe(`database errors in logs (${name})`, () => {
    let database: Awaited<ReturnType<typeof open>>;
    const table = `log_test_${process.pid}_${Date.now()}`;

    // Starting PGlite takes seconds, more on a busy machine.
    beforeAll(async () => {
      database = await open();
    }, 120_000);

    afterAll(async () => {
      await database?.execute(sql.raw(`drop table if exists ${table}`));
      await database?.close();
    });

    it('a unique violation is logged with the query text, code and constraint, and without the parameters', async () => {
      await database.execute(sql.raw(`create table ${table} (email text primary key, body text)`));
      await database.execute(sql`insert into ${sql.raw(table)} values (${SENTINEL}, ${'first body'})`);
      const error = await database
        .execute(sql`insert into ${sql.raw(table)} values (${SENTINEL}, ${'second body'})`)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect(String((error as Error).message)).toContain(SENTINEL); // what used to reach the log

      const { logger, lines } = capturingLogger();
      logger.error({ err: error }, 'delivery batch failed');
      logger.error(error as Error, 'as the first argument');
      logger.warn({ err: (error as Error).message }, 'as a message string');
      expect(lines).toHaveLength(3);
      for (const line of lines) expect(line).not.toContain(SENTINEL);
      const entry = JSON.parse(lines[0]);
      expect(entry.err.message).toBe(`Failed query: insert into ${table} values ($1, $2)`);
      expect(entry.err.query).toBe(`insert into ${table} values ($1, $2)`);
      expect(entry.err.cause).toMatchObject({ code: '23505', constraint: `${table}_pkey`, table });
      expect(entry.err.cause.message).toMatch(/duplicate key value violates unique constraint/);
      expect(entry.err.stack).toMatch(/^Error: Failed query: insert into .*\n\s+at /);
      expect(JSON.parse(lines[2]).err).toBe(`Failed query: insert into ${table} values ($1, $2)`);
    });

    it('a data exception does not quote the bad value', async () => {
      const error = await database.execute(sql`select ${SENTINEL}::int`).catch((caught: unknown) => caught);
      const { logger, lines } = capturingLogger();
      logger.error({ err: error }, 'query failed');
      expect(lines[0]).not.toContain(SENTINEL);
      expect(JSON.parse(lines[0]).err.cause).toMatchObject({
        code: '22P02',
        message: 'invalid input syntax for type integer: "[redacted]"',
      });
    });
  });
}

failingQueries('PGlite', async () => {
  const client = await PGlite.create();
  const db = drizzlePglite({ client });
  return { execute: (query) => db.execute(query), close: () => client.close() };
});

const postgresUrl = process.env.MAILSTEAD_TEST_POSTGRES_URL;
describe.skipIf(!postgresUrl)('with PostgreSQL', () => {
  failingQueries('PostgreSQL', async () => {
    const pool = new pg.Pool({ connectionString: postgresUrl, max: 1 });
    const db = drizzlePostgres({ client: pool });
    return { execute: (query) => db.execute(query), close: () => pool.end() };
  });
});

describe('other errors', () => {
  it('keep their own fields and causes', () => {
    const { logger, lines } = capturingLogger();
    const error = Object.assign(
      new Error('connect ECONNREFUSED 127.0.0.1:6379', { cause: new Error('socket closed') }),
      { code: 'ECONNREFUSED', port: 6379 },
    );
    logger.warn({ err: error }, 'redis error');
    expect(JSON.parse(lines[0]).err).toMatchObject({
      type: 'Error',
      message: 'connect ECONNREFUSED 127.0.0.1:6379',
      code: 'ECONNREFUSED',
      port: 6379,
      cause: { message: 'socket closed' },
    });
  });
});
