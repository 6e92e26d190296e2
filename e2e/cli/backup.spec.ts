import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { Header } from 'tar';
import { createAccountWithKey, runCli } from '../support/cli';
import { ApiClient } from '../support/client';
import { startServerWithMx, type ServerWithMx } from '../support/mx-suite';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { routeDomainToLoopback, verifiedDomain, waitForStatus } from '../support/sending';
import { startServer, tempDataDir, type ServerHandle } from '../support/server';

/**
 * `mailstead backup` and `restore` as an operator runs them: a backup taken while the server sends,
 * restored into a new data directory (PGlite) or a new database (PostgreSQL) under the same master
 * key, and a server started there that answers with the same messages, key and contacts. Then the
 * files and keys a restore must refuse, each leaving its target as it was.
 */
test.describe.configure({ mode: 'serial' });

const SENDER = 'backup-sender.test';
const RECIPIENTS = 'backup-inbox.test';

let suite: ServerWithMx;
let api: ApiClient;
let apiKey: string;
let messageIds: string[];
let backupDir: string;
const cleanups: (() => Promise<unknown>)[] = [];

test.beforeAll(async () => {
  suite = await startServerWithMx({ name: 'backup' });
  const account = await createAccountWithKey(suite.server.env, 'Backup account');
  apiKey = account.apiKey;
  api = new ApiClient(suite.server.baseUrl, suite.server.dataDir, account.apiKey, account.accountId);
  await verifiedDomain(api, SENDER);
  await routeDomainToLoopback(RECIPIENTS);
  const sent = await api.post(api.account('/messages'), {
    from: { email: `hello@${SENDER}` },
    recipients: [{ email: `ada@${RECIPIENTS}` }, { email: `grace@${RECIPIENTS}` }],
    subject: 'Kept safe',
    text_content: 'A message that outlives its data directory.',
  });
  expect(sent.status).toBe(202);
  messageIds = sent.body.data.map((message: { id: string }) => message.id);
  for (const id of messageIds) await waitForStatus(api, id, 'Delivered');
  for (const email of [`ada@${RECIPIENTS}`, `grace@${RECIPIENTS}`]) {
    expect((await api.post(api.account('/contacts'), { email, first_name: email.split('@')[0] })).status).toBe(201);
  }
  backupDir = mkdtempSync(path.join(os.tmpdir(), 'ms-backups-'));
});

test.afterAll(async () => {
  await suite?.stop();
  for (const cleanup of cleanups.reverse()) await cleanup();
  if (backupDir) rmSync(backupDir, { recursive: true, force: true });
});

/** The target a restore writes to: a new data directory, and on PostgreSQL a new empty database. */
async function newTarget(): Promise<{
  env: Record<string, string | undefined>;
  dataDir: string;
  tableCount: () => Promise<number>;
}> {
  const dataDir = tempDataDir();
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const env: Record<string, string | undefined> = { ...suite.server.env, DATA_DIR: dataDir };
  const adminUrl = postgresAdminUrl();
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'mailstead_restore', { empty: true });
    cleanups.push(scratch.drop);
    env.DATABASE_URL = scratch.url;
    return {
      env,
      dataDir,
      async tableCount() {
        const client = new pg.Client({ connectionString: scratch.url });
        await client.connect();
        const result = await client.query(
          `select count(*)::int as count from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
        );
        await client.end();
        return result.rows[0].count as number;
      },
    };
  }
  // The embedded default keeps its key in the data directory: the operator copies it beside the backup.
  copyFileSync(path.join(suite.server.dataDir, 'master.key'), path.join(dataDir, 'master.key'));
  return { env, dataDir, tableCount: async () => (existsSync(path.join(dataDir, 'pglite')) ? 1 : 0) };
}

const listing = (dir: string) => readdirSync(dir).sort();

async function readThroughApi(client: ApiClient) {
  const messages = await Promise.all(
    messageIds.map(async (id) => (await client.get(client.account(`/messages/${id}`))).body),
  );
  const contacts = (await client.get(client.account('/contacts'))).body.data.map(
    (contact: { email: string; id: string; first_name: string }) => ({
      id: contact.id,
      email: contact.email,
      first_name: contact.first_name,
    }),
  );
  return { messages, contacts };
}

test('backup while the server sends, restore into a new place: a server there has the same messages, key and contacts', async () => {
  const before = await readThroughApi(api);
  expect(before.messages.map((message) => message.status)).toEqual(['Delivered', 'Delivered']);
  const file = path.join(backupDir, 'mailstead backup.tar.gz');

  const backup = await runCli(['backup', file, '--json'], suite.server.env);
  expect(backup.stderr).toBe('');
  expect(backup.code).toBe(0);
  const written = JSON.parse(backup.stdout);
  expect(written).toMatchObject({
    file,
    database: postgresAdminUrl() ? 'postgres' : 'pglite',
    bytes: statSync(file).size,
    migration: { name: expect.stringMatching(/^\d{4}_/) },
  });
  expect(statSync(file).mode & 0o777).toBe(0o600);

  const again = await runCli(['backup', file], suite.server.env);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain(`${file} already exists: choose another file, or pass --force`);
  const forced = await runCli(['backup', file, '--force'], suite.server.env);
  expect(forced.code).toBe(0);
  expect(forced.stdout).toMatch(
    /^backup written to .*mailstead backup\.tar\.gz \(\d+(\.\d)? [kM]B, (pglite|postgres), migration \d{4}_\w+\)\n$/,
  );
  // Not even with --force over the server's own files (the master key, the certificate, the database).
  const keyFile = path.join(suite.server.dataDir, 'tls', 'cert.pem');
  const keyBefore = readFileSync(keyFile);
  const intoDataDir = await runCli(['backup', keyFile, '--force'], suite.server.env);
  expect(intoDataDir.code).toBe(1);
  expect(intoDataDir.stderr).toContain('is inside the data directory');
  expect(readFileSync(keyFile)).toEqual(keyBefore);

  await suite.server.stop();
  const target = await newTarget();

  const wrongKey = await runCli(['restore', file], {
    ...target.env,
    MAILSTEAD_SECRET: 'another-installation-secret-0123456789abcdef',
  });
  expect(wrongKey.code).toBe(1);
  expect(wrongKey.stderr).toMatch(
    /master key fingerprint mismatch: the key here \(MAILSTEAD_SECRET\) has fingerprint [0-9a-f]{32}, the backup was made under [0-9a-f]{32}/,
  );
  expect(listing(target.dataDir)).toEqual(postgresAdminUrl() ? [] : ['master.key']);
  expect(await target.tableCount()).toBe(0);

  const restored = await runCli(['restore', file], target.env);
  expect(restored.stderr).toBe('');
  expect(restored.code).toBe(0);
  expect(restored.stdout).toMatch(/^restored .* into (DATA_DIR|database) .*: start the server on it\n$/);

  const twice = await runCli(['restore', file], target.env);
  expect(twice.code).toBe(1);
  expect(twice.stderr).toMatch(/already holds (a database|\d+ table)/);

  const server: ServerHandle = await startServer({ dataDir: target.dataDir, env: target.env });
  cleanups.push(() => server.stop());
  const after = await readThroughApi(new ApiClient(server.baseUrl, server.dataDir, apiKey, api.accountId));
  expect(after).toEqual(before);
  expect(after.contacts).toHaveLength(2);
  await server.stop();
});

/** A gzipped tar of these entries, written byte by byte as a hostile archive would be. */
function hostileArchive(
  entries: { path: string; body?: string; type?: 'File' | 'SymbolicLink'; linkpath?: string }[],
): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const body = Buffer.from(entry.body ?? '', 'latin1');
    const header = new Header({
      path: entry.path,
      mode: 0o644,
      size: body.length,
      type: entry.type ?? 'File',
      linkpath: entry.linkpath,
      mtime: new Date(),
    });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

/** The entries of a backup file, read as plain tar blocks (no extraction). */
function entriesOf(file: string): { path: string; body: string }[] {
  const tarball = gunzipSync(readFileSync(file));
  const entries: { path: string; body: string }[] = [];
  for (let offset = 0; offset + 512 <= tarball.length;) {
    const header = new Header(tarball, offset);
    if (!header.path) break;
    const size = header.size ?? 0;
    entries.push({ path: header.path, body: tarball.subarray(offset + 512, offset + 512 + size).toString('latin1') });
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

test('a restore refuses a truncated file, hostile entries and a forged manifest, and writes nothing', async () => {
  const file = path.join(backupDir, 'mailstead backup.tar.gz');
  const target = await newTarget();
  const before = listing(target.dataDir);
  const attempt = async (name: string, content: Buffer) => {
    const hostile = path.join(backupDir, name);
    writeFileSync(hostile, content);
    const result = await runCli(['restore', hostile], target.env);
    expect(result.code, result.stderr).toBe(1);
    expect(listing(target.dataDir)).toEqual(before);
    expect(await target.tableCount()).toBe(0);
    return result.stderr;
  };

  const whole = readFileSync(file);
  const truncated = path.join(backupDir, '--truncated.tar.gz');
  writeFileSync(truncated, whole);
  truncateSync(truncated, Math.floor(whole.length * 0.6));
  const cut = await runCli(['restore', '--', truncated], target.env);
  expect(cut.code).toBe(1);
  expect(cut.stderr).toMatch(/is not a usable Mailstead backup: .*(damaged or truncated)/);

  const escapee = `escapee-${process.pid}-${Date.now()}`;
  const manifest = JSON.stringify({ format: 'mailstead-backup' });
  expect(await attempt('traversal.tar.gz', hostileArchive([{ path: `../../${escapee}`, body: 'x' }]))).toMatch(
    /its first entry is "\.\.\/\.\.\/escapee/,
  );
  expect(
    await attempt('absolute.tar.gz', hostileArchive([{ path: path.join(os.tmpdir(), escapee), body: 'x' }])),
  ).toMatch(/is not a usable Mailstead backup/);
  expect(
    await attempt(
      'link.tar.gz',
      hostileArchive([{ path: 'manifest.json', type: 'SymbolicLink', linkpath: '/etc/passwd' }]),
    ),
  ).toMatch(/a SymbolicLink entry/);
  expect(await attempt('forged.tar.gz', hostileArchive([{ path: 'manifest.json', body: manifest }]))).toMatch(
    /its manifest is not valid \(format_version: /,
  );
  expect(
    await attempt('oversize.tar.gz', hostileArchive([{ path: 'manifest.json', body: ' '.repeat(100_000) }])),
  ).toMatch(/its manifest is 100000 bytes/);
  const [manifestEntry, dumpEntry] = entriesOf(file);
  expect(manifestEntry.path).toBe('manifest.json');
  const real = JSON.parse(manifestEntry.body);
  expect(
    await attempt('smuggled.tar.gz', hostileArchive([manifestEntry, { path: `../../${escapee}`, body: 'x' }])),
  ).toMatch(/an unexpected entry/);
  expect(await attempt('no-dump.tar.gz', hostileArchive([manifestEntry]))).toMatch(
    /holds no database\.(tar|pgdump): the file is truncated/,
  );
  const altered = dumpEntry.body.slice(0, -1) + (dumpEntry.body.endsWith('x') ? 'y' : 'x');
  expect(
    await attempt('altered.tar.gz', hostileArchive([manifestEntry, { path: dumpEntry.path, body: altered }])),
  ).toMatch(/the dump's checksum does not match its manifest/);
  expect(
    await attempt(
      'grown.tar.gz',
      hostileArchive([manifestEntry, { path: dumpEntry.path, body: dumpEntry.body + 'x' }]),
    ),
  ).toMatch(/its dump is \d+ bytes, its manifest says \d+/);
  const newer = { ...real, migration: { ...real.migration, id: 4_102_444_800_000, name: '9999_from_the_future' } };
  expect(
    await attempt('newer.tar.gz', hostileArchive([{ path: 'manifest.json', body: JSON.stringify(newer) }, dumpEntry])),
  ).toMatch(
    /this backup was made by a newer Mailstead \(.*database at migration 9999_from_the_future; this version knows up to \d{4}_\w+\)/,
  );
  for (const where of [
    path.resolve(os.tmpdir(), '..', escapee),
    path.join(os.tmpdir(), escapee),
    path.resolve(backupDir, '../..', escapee),
    path.resolve(target.dataDir, '../..', escapee),
    path.resolve(process.cwd(), '../..', escapee),
  ]) {
    expect(existsSync(where), where).toBe(false);
  }
});

test('a backup with the server stopped: the CLI dumps the database itself', async () => {
  const file = path.join(backupDir, '-stopped.tar.gz');
  const result = await runCli(['backup', '--json', '--', file], suite.server.env);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toMatchObject({ file, bytes: statSync(file).size });
  expect(entriesOf(file).map((entry) => entry.path)).toEqual([
    'manifest.json',
    postgresAdminUrl() ? 'database.pgdump' : 'database.tar',
  ]);
});
