import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { fetch } from 'undici';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { freePort, startServer, type ServerHandle } from '../support/server';

/**
 * SIGKILL of the process writing a contact export of 40,000 contacts (about 1 KB each): after a
 * restart on the same data the export starts again from its first row and finishes with every
 * contact exactly once. A second export of the same contacts, downloaded, grows the server's
 * memory by far less than the 40 MB file: it is streamed page by page, never held whole.
 */
const CONTACTS = 40_000;
const NOTE = 1000;

/** Contacts written straight into the database (an import would take longer than the test). */
async function insertContacts(accountId: string, databaseUrl: string | null, dataDir: string) {
  const statements = [
    `insert into contact_attribute_definitions (account_id, key, type) values ($1, 'note', 'string')`,
    `insert into contacts (id, account_id, email, first_name, attributes)
       select gen_random_uuid(), $1, 'c' || g || '@crash.example', 'F' || g, jsonb_build_object('note', repeat('n', ${NOTE}))
       from generate_series(1, ${CONTACTS}) g`,
  ];
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    for (const statement of statements) await client.query(statement, [accountId]);
    await client.end();
    return;
  }
  const db = await PGlite.create({ dataDir: path.join(dataDir, 'pglite') });
  for (const statement of statements) await db.query(statement, [accountId]);
  await db.close();
}

/** The server's resident memory now (Linux), in bytes. */
function residentBytes(pid: number | undefined): number {
  const file = `/proc/${pid}/status`;
  if (!pid || !existsSync(file)) return 0;
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(file, 'utf8'))?.[1] ?? 0) * 1024;
}

test('SIGKILL during a 40,000-contact export: the restarted server rewrites the file, each contact once; memory stays bounded', async () => {
  test.setTimeout(600_000);
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    // Small pages: the export is still under way when the test sees it and kills the process.
    const env: Record<string, string> = { LOG_LEVEL: 'warn', CONTACT_EXPORT_PAGE_ROWS: '500' };
    const adminUrl = postgresAdminUrl();
    let databaseUrl: string | null = null;
    if (adminUrl) {
      const scratch = await createScratchDatabase(adminUrl, 'mailstead_exportcrash');
      cleanups.push(scratch.drop);
      databaseUrl = scratch.url;
      Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: randomBytes(32).toString('base64url') });
    }
    let server: ServerHandle = await startServer({ env });
    cleanups.push(() => server.stop());
    const account = await createAccountWithKey(server.env, 'Export crash');
    if (!databaseUrl) {
      // The embedded database opens in one process at a time: the server steps aside meanwhile.
      expect(await server.stop()).toBe(0);
      await insertContacts(account.accountId, null, server.dataDir);
      server = await startServer({ dataDir: server.dataDir, env: { ...env, PORT: String(await freePort()) } });
    } else {
      await insertContacts(account.accountId, databaseUrl, server.dataDir);
    }
    let api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    const queued = await api.post(api.account('/contacts/export'), {});
    expect(queued.status, queued.text).toBe(202);
    const progress = async () => (await api.get(api.account(`/contacts/export/${queued.body.id}`))).body;

    let beforeKill: any = null;
    await expect
      .poll(
        async () => {
          beforeKill = await progress();
          return beforeKill.exported;
        },
        { timeout: 120_000, intervals: [25] },
      )
      .toBeGreaterThanOrEqual(2000);
    server.process.kill('SIGKILL');
    await server.exited;
    console.log(`killed after ${beforeKill.exported}/${CONTACTS} contacts (status ${beforeKill.status})`);
    expect(beforeKill.status, 'the export finished before the kill').toBe('running');

    server = await startServer({ dataDir: server.dataDir, env: { ...env, PORT: String(await freePort()) } });
    api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    await expect.poll(async () => (await progress()).status, { timeout: 300_000, intervals: [250] }).toBe('done');
    const done = await progress();
    expect(done).toMatchObject({ status: 'done', exported: CONTACTS, total: CONTACTS, error: null });
    const file = await api.get(new URL(done.file_url).pathname, { checkContract: false });
    expect(file.status).toBe(200);
    const [header, ...rows] = parse(file.text) as string[][];
    expect(header).toEqual(['email', 'first_name', 'last_name', 'unsubscribed', 'created_at', 'note']);
    expect(rows).toHaveLength(CONTACTS);
    expect(new Set(rows.map((row) => row[0])).size).toBe(CONTACTS);
    expect(rows.every((row) => row[5].length === NOTE)).toBe(true);

    // Memory: a second export and its download, sampled every 20 ms, against the resident size before.
    const pid = server.process.pid;
    const baseline = residentBytes(pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 20);
    try {
      const again = await api.post(api.account('/contacts/export'), {});
      await expect
        .poll(async () => (await api.get(api.account(`/contacts/export/${again.body.id}`))).body.status, {
          timeout: 300_000,
          intervals: [250],
        })
        .toBe('done');
      const second = (await api.get(api.account(`/contacts/export/${again.body.id}`))).body;
      const response = await fetch(`${server.baseUrl}${new URL(second.file_url).pathname}`, {
        headers: { authorization: `Bearer ${account.apiKey}` },
        dispatcher: api.agent,
      });
      let bytes = 0;
      for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) bytes += piece.byteLength;
      expect(bytes).toBe(second.byte_size);
      expect(bytes).toBeGreaterThan(CONTACTS * NOTE);
    } finally {
      clearInterval(sampler);
    }
    const growth = peak - baseline;
    console.log(`resident memory: ${Math.round(baseline / 1e6)} MB before, peak ${Math.round(peak / 1e6)} MB`);
    // Held whole, the 40 MB file would take more than 80 MB as JavaScript strings alone.
    if (baseline > 0) expect(growth).toBeLessThan(60 * 1024 * 1024);
  } finally {
    for (const step of cleanups.reverse()) await step().catch(() => {});
  }
});
