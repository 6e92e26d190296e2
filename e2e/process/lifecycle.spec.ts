import { randomBytes, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { generate } from 'selfsigned';
import { Agent, fetch } from 'undici';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { freePort, isPostgresRun, startServer, tempDataDir, type ServerHandle } from '../support/server';

/** Each test here runs server processes of its own, but for the block that shares one. */

async function scratchPostgres(t: typeof test) {
  const adminUrl = postgresAdminUrl();
  t.skip(!adminUrl, 'needs the PostgreSQL run');
  // Empty: these starts migrate (three at once, say), as a first start does.
  return createScratchDatabase(adminUrl!, 'mailstead_proc', { empty: true });
}

/**
 * One server for the checks that need one running, in this order, ending with its shutdown and a
 * restart under another master key: five tests, one start (they started one each).
 */
test.describe.serial('one server: its certificate, a proxy in front, a second process, SIGTERM', () => {
  let server: ServerHandle;
  test.beforeAll(async () => {
    server = await startServer({ env: { PUBLIC_URL: 'https://mail.example.test', TRUST_PROXY: '127.0.0.1/32' } });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('the self-signed certificate names localhost, 127.0.0.1, ::1 and the PUBLIC_URL host', async () => {
    const cert = new X509Certificate(readFileSync(path.join(server.dataDir, 'tls', 'cert.pem')));
    expect(cert.subjectAltName).toContain('DNS:localhost');
    expect(cert.subjectAltName).toContain('DNS:mail.example.test');
    expect(cert.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(cert.subjectAltName).toMatch(/IP Address:(0:0:0:0:0:0:0:1|::1)/);
  });

  test('TRUST_PROXY: plain HTTP from a trusted proxy with X-Forwarded-Proto https is served, with the forwarded client IP', async () => {
    const account = await createAccountWithKey({ ...server.env });
    const api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    const restricted = await api.post(api.account('/api-keys'), {
      label: 'behind proxy',
      scopes: ['api-keys:read'],
      ip_allow_list: ['203.0.113.0/24'],
    });
    const plain = `http://127.0.0.1:${server.port}/v2/ping`;
    const viaProxy = await fetch(plain, {
      headers: {
        authorization: `Bearer ${restricted.body.secret_key}`,
        'x-forwarded-proto': 'https',
        'x-forwarded-for': '203.0.113.50, 127.0.0.1',
      },
    });
    expect(viaProxy.status).toBe(200);
    const otherClient = await fetch(plain, {
      headers: {
        authorization: `Bearer ${restricted.body.secret_key}`,
        'x-forwarded-proto': 'https',
        'x-forwarded-for': '198.51.100.1',
      },
    });
    expect(otherClient.status).toBe(403);
    const notHttps = await fetch(plain, {
      headers: { authorization: `Bearer ${account.apiKey}`, 'x-forwarded-for': '203.0.113.50' },
    });
    expect(notHttps.status).toBe(400);
  });

  test('PGlite: a second server on the same data directory refuses to start', async () => {
    test.skip(isPostgresRun(), 'embedded database only');
    const second = await startServer({ dataDir: server.dataDir, waitForReady: false });
    expect(await second.exited).toBe(1);
    const log = readFileSync(second.logFile, 'utf8');
    expect(log).toMatch(new RegExp(`another Mailstead process \\(pid ${server.process.pid}\\)`));
  });

  test('SIGTERM shuts down cleanly: exit 0, lock and control socket removed', async () => {
    expect(await server.stop('SIGTERM')).toBe(0);
    // The control socket is there on both databases while a single process runs; the lock only on PGlite.
    expect(existsSync(path.join(server.dataDir, 'mailstead.sock'))).toBe(false);
    if (!isPostgresRun()) expect(existsSync(path.join(server.dataDir, 'mailstead.lock'))).toBe(false);
  });

  test('PGlite: a different master key refuses to start', async () => {
    test.skip(isPostgresRun(), 'embedded database only');
    writeFileSync(path.join(server.dataDir, 'master.key'), randomBytes(32).toString('base64'));
    const wrong = await startServer({ dataDir: server.dataDir, waitForReady: false });
    expect(await wrong.exited).toBe(1);
    expect(readFileSync(wrong.logFile, 'utf8')).toMatch(/master key does not match/);
  });
});

test('PGlite: data acknowledged before a SIGKILL survives it, and the lock of the dead process is taken over', async () => {
  test.skip(isPostgresRun(), 'embedded database only');
  const server = await startServer();
  const account = await createAccountWithKey({ DATA_DIR: server.dataDir });
  const api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
  const acknowledged: string[] = [];
  let stop = false;
  const writer = async (worker: number) => {
    for (let i = 0; !stop; i++) {
      try {
        const response = await api.post(
          api.account('/api-keys'),
          { label: `crash ${worker}-${i}`, scopes: ['domains:read'] },
          { checkContract: false },
        );
        if (response.status === 201) acknowledged.push(response.body.id);
      } catch {
        return; // the connection died with the server
      }
    }
  };
  const writers = [writer(1), writer(2), writer(3), writer(4)];
  await expect.poll(() => acknowledged.length, { timeout: 30_000 }).toBeGreaterThan(40);
  server.process.kill('SIGKILL');
  await server.exited;
  stop = true;
  await Promise.all(writers);
  expect(existsSync(path.join(server.dataDir, 'mailstead.lock'))).toBe(true);

  const restarted = await startServer({ dataDir: server.dataDir });
  try {
    const again = new ApiClient(restarted.baseUrl, restarted.dataDir, account.apiKey, account.accountId);
    const stored = new Set<string>();
    let after = '';
    for (;;) {
      const page = await again.get(again.account(`/api-keys?limit=100${after ? `&after=${after}` : ''}`));
      expect(page.status).toBe(200);
      for (const key of page.body.data) stored.add(key.id);
      if (!page.body.pagination.has_more) break;
      after = page.body.pagination.next_cursor;
    }
    const lost = acknowledged.filter((id) => !stored.has(id));
    expect(lost).toEqual([]);
  } finally {
    expect(await restarted.stop()).toBe(0);
  }
});

const configErrors: [string, Record<string, string | undefined>, RegExp][] = [
  ['PORT=abc', { PORT: 'abc' }, /^mailstead: invalid PORT="abc": /m],
  ['ROLES=web,mail', { ROLES: 'web,mail' }, /^mailstead: invalid ROLES="web,mail": unknown role "mail"/m],
  ['TRUST_PROXY=10.0.0.0/40', { TRUST_PROXY: '10.0.0.0/40' }, /^mailstead: invalid TRUST_PROXY=/m],
  ['LOG_LEVEL=loud', { LOG_LEVEL: 'loud' }, /^mailstead: invalid LOG_LEVEL="loud"/m],
  ['DATABASE_URL=mysql://x', { DATABASE_URL: 'mysql://x' }, /^mailstead: invalid DATABASE_URL=.*postgres/m],
  [
    'DATABASE_URL without MAILSTEAD_SECRET',
    { DATABASE_URL: 'postgres://127.0.0.1/none', MAILSTEAD_SECRET: '' },
    /^mailstead: missing MAILSTEAD_SECRET/m,
  ],
  ['a short MAILSTEAD_SECRET', { MAILSTEAD_SECRET: 'short' }, /^mailstead: invalid MAILSTEAD_SECRET=.*at least 32/m],
  ['TLS_CERT without TLS_KEY', { TLS_CERT: '/tmp/cert.pem' }, /^mailstead: invalid TLS_KEY/m],
  [
    'WORKERS=2 on the embedded database',
    { WORKERS: '2' },
    /^mailstead: invalid WORKERS="2": the embedded database \(PGlite\) allows one process/m,
  ],
];

for (const [name, env, message] of configErrors) {
  test(`configuration: ${name} exits 1 with one line naming the variable`, async () => {
    const server = await startServer({
      env: { PORT: String(await freePort()), DATABASE_URL: '', MAILSTEAD_SECRET: '', ...env },
      waitForReady: false,
    });
    expect(await server.exited).toBe(1);
    const log = readFileSync(server.logFile, 'utf8');
    expect(log).toMatch(message);
    expect(log.trim().split('\n')).toHaveLength(1);
  });
}

test('PostgreSQL: a process with another MAILSTEAD_SECRET refuses to start', async () => {
  const scratch = await scratchPostgres(test);
  try {
    const first = await startServer({ env: { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: 'a'.repeat(40) } });
    expect(await first.stop()).toBe(0);
    const wrong = await startServer({
      env: { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: 'b'.repeat(40) },
      waitForReady: false,
    });
    expect(await wrong.exited).toBe(1);
    expect(readFileSync(wrong.logFile, 'utf8')).toMatch(/master key does not match/);
  } finally {
    await scratch.drop();
  }
});

test('PostgreSQL: three processes starting at once migrate once and all serve', async () => {
  const scratch = await scratchPostgres(test);
  const env = { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: 'c'.repeat(40) };
  const servers = await Promise.all([startServer({ env }), startServer({ env }), startServer({ env })]);
  try {
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    const applied = await client.query('select count(*)::int as n from drizzle.__drizzle_migrations');
    const journal = JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, '../../lib/db/migrations/meta/_journal.json'), 'utf8'),
    );
    expect(applied.rows[0].n).toBe(journal.entries.length);
    await client.end();
    const account = await createAccountWithKey({ ...env, DATA_DIR: servers[0].dataDir });
    for (const server of servers) {
      const api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
      expect((await api.get(api.account())).status).toBe(200);
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await scratch.drop();
  }
});

test('TLS_CERT and TLS_KEY are served when given', async () => {
  const pems = await generate([{ name: 'commonName', value: 'given.example.test' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  } as never);
  const dir = tempDataDir();
  writeFileSync(path.join(dir, 'given-cert.pem'), pems.cert);
  writeFileSync(path.join(dir, 'given-key.pem'), pems.private);
  const server = await startServer({
    dataDir: dir,
    env: { TLS_CERT: path.join(dir, 'given-cert.pem'), TLS_KEY: path.join(dir, 'given-key.pem') },
    waitForReady: false,
  });
  try {
    const agent = new Agent({ connect: { ca: pems.cert } });
    await expect
      .poll(
        async () =>
          (await fetch(`${server.baseUrl}/v2/openapi.json`, { dispatcher: agent }).catch(() => null))?.status ?? 0,
        // A start on a loaded 2-core machine has taken over a minute (see the test timeout).
        { timeout: 90_000 },
      )
      .toBe(200);
    expect(existsSync(path.join(dir, 'tls', 'cert.pem'))).toBe(false);
  } finally {
    await server.stop();
  }
});
