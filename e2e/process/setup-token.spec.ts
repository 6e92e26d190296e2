import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { CLI, ROOT } from '../support/paths';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { databaseEnv, freePort, startServer, tempDataDir, waitForReady, type ServerHandle } from '../support/server';

/**
 * The first run's setup token: a plain banner with the /setup address when the server starts in a
 * terminal (`script` gives it one), only the JSON log line otherwise, and DATA_DIR/setup-token gone
 * as soon as an account exists, whether made on the setup page or with the CLI.
 */
const BANNER = 'Open this address to set it up:';
const drops: (() => Promise<void>)[] = [];
const servers: ServerHandle[] = [];

/** A database with no account: PGlite in the data directory, or a scratch PostgreSQL database. */
async function emptyDatabaseEnv(): Promise<Record<string, string>> {
  const adminUrl = postgresAdminUrl();
  if (!adminUrl) return {};
  const scratch = await createScratchDatabase(adminUrl, 'mailstead_token', { empty: true });
  drops.push(scratch.drop);
  return { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: 'setup-token-secret-setup-token-secret-01', REDIS_URL: '' };
}

/** `mailstead start` with a terminal on stdout and stderr, as a person typing `npm start` has. */
async function startInTerminal(env: Record<string, string>): Promise<ServerHandle> {
  const dataDir = tempDataDir();
  const port = await freePort();
  const fullEnv = {
    ...process.env,
    ...databaseEnv(),
    DATA_DIR: dataDir,
    PORT: String(port),
    ROLES: 'web,worker',
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    PUBLIC_URL: `https://127.0.0.1:${port}`,
    DNS_SERVERS: '127.0.0.1:9',
    WORKERS: '1',
    ...env,
  };
  const logFile = path.join(dataDir, 'server.log');
  const command = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} start --no-build`;
  // Its own process group, so that stopping it stops the server inside the terminal too.
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: fullEnv as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const log = createWriteStream(logFile, { flags: 'a' });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const handle: ServerHandle = {
    baseUrl: `https://127.0.0.1:${port}`,
    port,
    dataDir,
    env: fullEnv,
    process: child,
    logFile,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, signal);
      return exited;
    },
  };
  servers.push(handle);
  await waitForReady(handle);
  return handle;
}

test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  for (const drop of drops) await drop();
});

test('in a terminal: a banner names /setup with the token; an account made with the CLI removes DATA_DIR/setup-token', async () => {
  test.setTimeout(180_000);
  const server = await startInTerminal(await emptyDatabaseEnv());
  const tokenFile = path.join(server.dataDir, 'setup-token');
  const token = readFileSync(tokenFile, 'utf8').trim();
  await expect.poll(() => readFileSync(server.logFile, 'utf8'), { timeout: 10_000 }).toContain(BANNER);
  expect(readFileSync(server.logFile, 'utf8')).toContain(`    ${server.baseUrl}/setup?token=${token}`);
  // The JSON line for log collectors is still written.
  expect(readFileSync(server.logFile, 'utf8')).toMatch(/"msg":"first run: no account exists yet[^"]*"/);

  // The CLI talks to the running server (it holds the data directory): setup is done, the copy goes.
  await createAccountWithKey({ ...server.env, LOG_LEVEL: 'warn' } as Record<string, string>, 'Made by the operator');
  expect(existsSync(tokenFile)).toBe(false);
  const api = new ApiClient(server.baseUrl, server.dataDir);
  expect((await api.get('/internal/setup')).body).toEqual({ needs_setup: false });
});

test("without a terminal: only the JSON log line; the setup page's account removes DATA_DIR/setup-token", async () => {
  test.setTimeout(180_000);
  const server = await startServer({ env: await emptyDatabaseEnv(), freshDatabase: true });
  servers.push(server);
  const tokenFile = path.join(server.dataDir, 'setup-token');
  const token = readFileSync(tokenFile, 'utf8').trim();
  const log = readFileSync(server.logFile, 'utf8');
  expect(log).toMatch(
    new RegExp(`"msg":"first run: no account exists yet; open /setup and enter the setup token ${token}"`),
  );
  expect(log).not.toContain(BANNER);

  const api = new ApiClient(server.baseUrl, server.dataDir);
  const wrong = await api.post('/internal/setup', {
    token: 'setup-wrong',
    account_name: 'Acme',
    email: 'owner@acme.example',
    password: 'a long enough password',
  });
  expect(wrong.status).toBe(403);
  expect(existsSync(tokenFile)).toBe(true);
  const done = await api.post('/internal/setup', {
    token,
    account_name: 'Acme',
    email: 'owner@acme.example',
    password: 'a long enough password',
  });
  expect(done.status).toBe(201);
  expect(existsSync(tokenFile)).toBe(false);

  // A restart finds an account: no new token, no file, no banner.
  await server.stop();
  const again = await startServer({
    dataDir: server.dataDir,
    env: { DATABASE_URL: server.env.DATABASE_URL ?? '', MAILSTEAD_SECRET: server.env.MAILSTEAD_SECRET ?? '' },
  });
  servers.push(again);
  expect(existsSync(tokenFile)).toBe(false);
  expect(readFileSync(again.logFile, 'utf8').split('first run:').length).toBe(2);
});
