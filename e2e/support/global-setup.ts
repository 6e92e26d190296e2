import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import pg from 'pg';
import { runCli } from './cli';
import { contractFile } from './contract';
import { TestDnsServer } from './dns-server';
import { createScratchDatabase, postgresAdminUrl } from './postgres';
import { ROOT } from './paths';
import { freePort, startServer, tempDataDir } from './server';

/**
 * One Mailstead server for the whole run, started the way a user starts it. On a PostgreSQL run it
 * gets a fresh database. Specs that need their own process (crash tests, CLI, configuration) start
 * their own with support/server.ts.
 */
export default async function globalSetup(_config: FullConfig) {
  if (!contractFile) {
    console.warn(
      '\n!!! ../shared/reference/ahasend-openapi.yaml was not found: responses are NOT checked against the AhaSend contract !!!\n',
    );
  }
  // The server's build (bin/server-build.js), once, before any server or CLI call of the run: each
  // of them starts from it instead of compiling the sources (half the CPU of a start).
  const build = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'server-build.js')], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the server build failed (bin/server-build.js)');
  let dropDatabase: (() => Promise<void>) | null = null;
  const adminUrl = postgresAdminUrl();
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'mailstead_e2e', { empty: true });
    dropDatabase = scratch.drop;
    process.env.MAILSTEAD_TEST_DATABASE_URL = scratch.url;
    process.env.MAILSTEAD_TEST_SECRET = randomBytes(32).toString('base64url');
  }
  // Every DNS lookup of the run goes to a server on loopback that the tests control.
  const dns = new TestDnsServer();
  await dns.start();
  process.env.MAILSTEAD_TEST_DNS = `127.0.0.1:${dns.port}`;
  process.env.MAILSTEAD_TEST_DNS_CONTROL = dns.controlUrl;
  // A small pause threshold, so the dashboard suite can make a domain pause with a few bounces.
  // The MX role too, on a port of the run's: specs speak SMTP to it at MAILSTEAD_MX_PORT.
  const mxPort = await freePort();
  const template = adminUrl ? null : makePgliteTemplate();
  const postgresTemplate = adminUrl ? makePostgresTemplate(adminUrl) : null;
  const server = await startServer({
    env: {
      ROLES: 'web,worker,mx',
      MX_PORT: String(mxPort),
      DNS_CHECK_CACHE_SECONDS: '0',
      PAUSE_MIN_VOLUME: '4',
      PAUSE_BOUNCE_RATE: '0.5',
      DELIVERY_POLL_MS: '100',
      // Each API request logged with its id, for request-id.spec.ts.
      LOG_LEVEL: 'debug',
    },
  });
  if (template) process.env.MAILSTEAD_TEST_PGLITE_TEMPLATE = await template;
  if (postgresTemplate) process.env.MAILSTEAD_TEST_POSTGRES_TEMPLATE = (await postgresTemplate).name;
  process.env.MAILSTEAD_MX_PORT = String(mxPort);
  process.env.MAILSTEAD_BASE_URL = server.baseUrl;
  process.env.MAILSTEAD_DATA_DIR = server.dataDir;
  console.log(
    `Mailstead under test: ${server.baseUrl} on ${adminUrl ? 'PostgreSQL' : 'PGlite'} (data ${server.dataDir})`,
  );
  return async () => {
    const code = await server.stop('SIGTERM');
    if (code !== 0) console.warn(`shared server exited with ${code}; log: ${server.logFile}`);
    reportServerErrors(server.logFile);
    await dropDatabase?.();
    await dns.stop();
    if (template) rmSync(await template, { recursive: true, force: true });
    await (await postgresTemplate)?.drop();
  };
}

/**
 * A data directory with a migrated, empty PGlite database and its master key, made by the CLI (which
 * opens the database itself when no server runs), for the servers specs start (server.ts).
 */
async function makePgliteTemplate(): Promise<string> {
  const dir = tempDataDir('ms-template-');
  const env = { DATA_DIR: dir, DATABASE_URL: '', MAILSTEAD_SECRET: '', REDIS_URL: '' };
  const result = await runCli(['accounts', 'list', '--json'], env);
  if (result.code !== 0) throw new Error(`the PGlite template was not made (${result.code}): ${result.stderr}`);
  return dir;
}

/**
 * The same on PostgreSQL: a database with every migration applied and no master key recorded yet (the
 * first server on a copy records its own MAILSTEAD_SECRET's), for createScratchDatabase to copy.
 */
async function makePostgresTemplate(adminUrl: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const scratch = await createScratchDatabase(adminUrl, 'mailstead_template', { empty: true });
  const env = {
    DATA_DIR: tempDataDir('ms-template-'),
    DATABASE_URL: scratch.url,
    MAILSTEAD_SECRET: randomBytes(32).toString('base64url'),
    REDIS_URL: '',
  };
  const result = await runCli(['migrate'], env);
  if (result.code !== 0) throw new Error(`the PostgreSQL template was not made (${result.code}): ${result.stderr}`);
  const client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  await client.query(`delete from settings where key = 'master_key_fingerprint'`);
  await client.end();
  return { name: new URL(scratch.url).pathname.slice(1), drop: scratch.drop };
}

/**
 * The shared server's error lines, printed at the end of the run: CI keeps only what the run prints,
 * and a test that timed out waiting for background work is explained by them.
 */
function reportServerErrors(logFile: string, most = 30) {
  const errors = readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => /^\{"level":(50|60),/.test(line));
  if (errors.length === 0) return;
  console.warn(`The shared server logged ${errors.length} errors; the last ${Math.min(most, errors.length)}:`);
  for (const line of errors.slice(-most)) console.warn(line.length > 2000 ? `${line.slice(0, 2000)}…` : line);
}
