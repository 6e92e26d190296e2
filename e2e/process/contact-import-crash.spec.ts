import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { fetch } from 'undici';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { freePort, startServer, type ServerHandle } from '../support/server';

/**
 * SIGKILL of the process running a contact import, 10,000-40,000 rows into 60,000: after a restart on
 * the same data (directory or PostgreSQL database) the import resumes after its last committed
 * batch and completes with every row counted once, every contact created once and every one a
 * member of the list.
 */
const ROWS = 60_000;

/** Attribute definitions are managed in the dashboard only: written here straight into the database. */
async function defineAttributes(accountId: string, databaseUrl: string | null, dataDir: string) {
  const statement = `insert into contact_attribute_definitions (account_id, key, type) values ($1, 'plan', 'string'), ($1, 'age', 'number'), ($1, 'vip', 'boolean')`;
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(statement, [accountId]);
    await client.end();
    return;
  }
  const db = await PGlite.create({ dataDir: path.join(dataDir, 'pglite') });
  await db.query(statement, [accountId]);
  await db.close();
}

test('SIGKILL during a 60,000-row import: the restarted server resumes it, and every row is imported exactly once', async () => {
  test.setTimeout(600_000);
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const env: Record<string, string> = { LOG_LEVEL: 'warn' };
    const adminUrl = postgresAdminUrl();
    let databaseUrl: string | null = null;
    if (adminUrl) {
      const scratch = await createScratchDatabase(adminUrl, 'mailstead_importcrash');
      cleanups.push(scratch.drop);
      databaseUrl = scratch.url;
      Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: randomBytes(32).toString('base64url') });
    }
    let server: ServerHandle = await startServer({ env });
    cleanups.push(() => server.stop());
    const account = await createAccountWithKey(server.env, 'Import crash');
    if (!databaseUrl) {
      // The embedded database opens in one process at a time: the server steps aside meanwhile.
      expect(await server.stop()).toBe(0);
      await defineAttributes(account.accountId, null, server.dataDir);
      server = await startServer({ dataDir: server.dataDir, env: { ...env, PORT: String(await freePort()) } });
    } else {
      await defineAttributes(account.accountId, databaseUrl, server.dataDir);
    }
    let api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    const list = await api.post(api.account('/lists'), { name: 'Crash' });
    expect(list.status).toBe(201);

    const rows = Array.from(
      { length: ROWS },
      (_, index) => `crash${index}@import.example,plan${index % 5},${index % 97},${index % 2 ? 'TRUE' : 'false'}`,
    );
    const csv = ['email,plan,age,vip', ...rows].join('\n');
    const uploaded = await fetch(`${server.baseUrl}${api.account(`/contacts/import?list_id=${list.body.id}`)}`, {
      method: 'POST',
      body: csv,
      headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'text/csv' },
      dispatcher: api.agent,
    });
    expect(uploaded.status).toBe(202);
    const importId = ((await uploaded.json()) as { id: string }).id;
    const progress = async () => (await api.get(api.account(`/contacts/import/${importId}`))).body;

    const killAt = 10_000 + Math.floor(Math.random() * 30_000);
    let beforeKill: any = null;
    await expect
      .poll(
        async () => {
          beforeKill = await progress();
          return beforeKill.counts.processed;
        },
        { timeout: 120_000, intervals: [50] },
      )
      .toBeGreaterThanOrEqual(killAt);
    server.process.kill('SIGKILL');
    await server.exited;
    console.log(
      `killed after ${beforeKill.counts.processed}/${ROWS} rows were seen committed (status ${beforeKill.status})`,
    );
    expect(beforeKill.status, 'the import finished before the kill').toBe('running');

    server = await startServer({ dataDir: server.dataDir, env: { ...env, PORT: String(await freePort()) } });
    api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    const atRestart = await progress();
    console.log(`after the restart: ${atRestart.counts.processed}/${ROWS} rows (status ${atRestart.status})`);
    expect(atRestart.counts.processed).toBe(atRestart.counts.created);

    await expect.poll(async () => (await progress()).status, { timeout: 300_000, intervals: [250] }).toBe('completed');
    const done = await progress();
    expect(done).toMatchObject({
      status: 'completed',
      counts: { processed: ROWS, created: ROWS, updated: 0, errors: 0 },
      errors: [],
      failure_reason: null,
    });
    expect((await api.get(api.account(`/lists/${list.body.id}`))).body.member_counts).toMatchObject({
      confirmed: ROWS,
    });
    const last = (await api.get(api.account(`/contacts/${encodeURIComponent(`crash${ROWS - 1}@import.example`)}`)))
      .body;
    expect(last.attributes).toEqual({ plan: `plan${(ROWS - 1) % 5}`, age: (ROWS - 1) % 97, vip: true });
    // Exactly one contact per row: the listing's last page ends at ROWS.
    const page = await api.get(api.account(`/contacts?email=${encodeURIComponent('crash0@import.example')}`));
    expect(page.body.data).toHaveLength(1);
  } finally {
    for (const step of cleanups.reverse()) await step().catch(() => {});
  }
});
