import { randomBytes } from 'node:crypto';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal } from '@/lib/auth/principal';
import { createAccount } from '@/lib/core/accounts/create-account';
import { createContactImport } from '@/lib/core/contact-imports/create-contact-import';
import type { Services } from '@/lib/core/context';
import { createTemplateRenderer } from '@/lib/core/templates/engine/template-renderer';
import { MIGRATIONS_FOLDER, type Db } from '@/lib/db/client';
import * as schema from '@/lib/db/schema';
import { contactImports, contacts, workers } from '@/lib/db/schema';
import { startContactImportWorker } from '@/lib/workers/contact-import-loop';
import { SecretBox } from '@/lib/shared/crypto';
import { newId } from '@/lib/shared/ids';
import { hostIdentity } from '@/lib/workers/liveness';
import { TEST_CONFIG, TestDns, as, testAttemptLimiter } from '../../../support/memory-services';

/**
 * Two worker processes (two connection pools on one PostgreSQL database) share the import queue:
 * every import is claimed by exactly one of them, once, and imports writing the same addresses at
 * the same time neither deadlock nor lose a row. Needs MAILSTEAD_TEST_POSTGRES_URL; a scratch database.
 */
const adminUrl = process.env.MAILSTEAD_TEST_POSTGRES_URL;
const IMPORTS = 8;
const ROWS = 3000;

describe.skipIf(!adminUrl)('two import workers on one PostgreSQL database', () => {
  const databaseName = `mailstead_imp_${process.pid}_${Date.now()}`;
  const pools: pg.Pool[] = [];
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(query);
    await client.end();
  };

  beforeAll(() => admin(`create database "${databaseName}"`), 30_000);
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await admin(`drop database if exists "${databaseName}" with (force)`);
  });

  function processServices(url: string, secrets: SecretBox): Services {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pool.on('error', () => {});
    pools.push(pool);
    return {
      db: drizzle({ client: pool, schema }) as unknown as Db,
      config: TEST_CONFIG,
      secrets,
      logger: pino({ level: 'silent' }),
      now: () => new Date(),
      dns: new TestDns(),
      renderer: createTemplateRenderer({ workers: 1 }),
      passwordAttempts: testAttemptLimiter(),
      resetRequests: testAttemptLimiter(),
    };
  }

  it(`${IMPORTS} imports of ${ROWS} rows, half of them over the same addresses: each claimed once, every row counted once`, async () => {
    const url = new URL(adminUrl!);
    url.pathname = `/${databaseName}`;
    const secrets = new SecretBox(randomBytes(32));
    const first = processServices(url.toString(), secrets);
    const second = processServices(url.toString(), secrets);
    await migrate(first.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    await Promise.all([first.renderer.close(), second.renderer.close()]);
    const account = await createAccount(as(first, systemPrincipal('')), {
      name: 'Imports',
      owner_email: `owner-${newId()}@example.com`,
      owner_password: 'correct horse battery staple',
    });
    const principal = systemPrincipal(account.account_id);
    const now = new Date();
    await first.db.insert(workers).values(
      ['worker-a', 'worker-b'].map((id) => ({
        id,
        hostname: hostIdentity(),
        pid: 1,
        startedAt: now,
        heartbeatAt: now,
      })),
    );

    // Even imports write shared addresses (in a different order each), odd ones their own.
    const ids: string[] = [];
    for (let index = 0; index < IMPORTS; index++) {
      const emails = Array.from({ length: ROWS }, (_, row) =>
        index % 2 === 0 ? `shared${(row * (index + 1)) % ROWS}@both.example` : `own${index}-${row}@one.example`,
      );
      const body = (async function* () {
        yield Buffer.from(['email,first_name', ...emails.map((email) => `${email},I${index}`)].join('\n'));
      })();
      ids.push((await createContactImport(as(first, principal), { content_type: 'text/csv', body })).id);
    }

    const holders = new Map<string, Set<string>>();
    const watching = setInterval(() => {
      void first.db
        .select({ id: contactImports.id, lockedBy: contactImports.lockedBy })
        .from(contactImports)
        .where(isNotNull(contactImports.lockedBy))
        .then((rows) =>
          rows.forEach((row) => holders.set(row.id, (holders.get(row.id) ?? new Set()).add(row.lockedBy!))),
        )
        .catch(() => {});
    }, 10);
    const settings = { pollMs: 20, batchRows: 500 };
    const runners = await Promise.all([
      startContactImportWorker(first, { workerId: 'worker-a', isOnlyProcess: false, settings }),
      startContactImportWorker(second, { workerId: 'worker-b', isOnlyProcess: false, settings }),
    ]);
    try {
      const deadline = Date.now() + 90_000;
      for (;;) {
        const [{ open }] = await first.db
          .select({ open: sql<number>`count(*)::int` })
          .from(contactImports)
          .where(sql`${contactImports.status} not in ('completed', 'failed')`);
        if (open === 0) break;
        if (Date.now() > deadline) throw new Error(`${open} imports still open`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      clearInterval(watching);
      await Promise.all(runners.map((runner) => runner.stop()));
    }

    const jobs = await first.db.select().from(contactImports).where(eq(contactImports.accountId, account.account_id));
    expect(
      jobs.map((job) => [job.status, job.attempts, job.rowsDone, job.createdCount + job.updatedCount, job.errorCount]),
    ).toEqual(ids.map(() => ['completed', 1, ROWS, ROWS, 0]));
    // Every import ran on one worker only, and both workers took part.
    expect([...holders.values()].every((held) => held.size === 1)).toBe(true);
    expect(new Set([...holders.values()].flatMap((held) => [...held]))).toEqual(new Set(['worker-a', 'worker-b']));
    const distinct = ROWS + (IMPORTS / 2) * ROWS;
    expect(jobs.reduce((sum, job) => sum + job.createdCount, 0)).toBe(distinct);
    const [{ stored }] = await first.db
      .select({ stored: sql<number>`count(*)::int` })
      .from(contacts)
      .where(and(eq(contacts.accountId, account.account_id)));
    expect(stored).toBe(distinct);
  }, 120_000);
});
