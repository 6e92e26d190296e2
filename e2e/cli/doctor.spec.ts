import { chmodSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { runCli } from '../support/cli';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { isPostgresRun, startServer, type ServerHandle } from '../support/server';

/**
 * `mailstead doctor` against a real running server, as an operator runs it on the same machine with
 * the server's environment: JSON shape and exit code, then broken setups that exit 1 naming the fix.
 */
let server: ServerHandle;
let dropDatabase: (() => Promise<void>) | null = null;

test.beforeAll(async () => {
  const adminUrl = postgresAdminUrl();
  const extra: Record<string, string | undefined> = {};
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'mailstead_doctor');
    dropDatabase = scratch.drop;
    extra.DATABASE_URL = scratch.url;
    extra.MAILSTEAD_SECRET = 'doctor-test-secret-doctor-test-secret-0123';
  }
  server = await startServer({ env: extra });
});

test.afterAll(async () => {
  await server?.stop();
  await dropDatabase?.();
});

type Report = { ok: boolean; checks: { check: string; status: string; message: string; fix: string | null }[] };

const doctor = async (env: Record<string, string | undefined> = {}) => {
  const result = await runCli(['doctor', '--json'], { ...server.env, LOG_LEVEL: 'warn', ...env });
  return { ...result, report: JSON.parse(result.stdout) as Report };
};

test('doctor --json against a healthy running server: one JSON object, nothing failed, exit 0', async () => {
  const { code, stdout, report } = await doctor();
  expect(stdout.trim().split('\n')).toHaveLength(1);
  expect(code).toBe(0);
  expect(report.ok).toBe(true);
  for (const check of report.checks) {
    expect(Object.keys(check).sort()).toEqual(['check', 'fix', 'message', 'status']);
    expect(['ok', 'warn', 'skip']).toContain(check.status);
  }
  const byName = (name: string) => report.checks.filter((check) => check.check === name);
  expect(byName('public_url')).toEqual([
    expect.objectContaining({ status: 'ok', message: `${server.baseUrl} answers over HTTPS` }),
  ]);
  expect(byName('port')).toEqual([
    expect.objectContaining({ status: 'ok', message: `PORT ${server.port}: Mailstead answers on it` }),
  ]);
  expect(byName('tls_certificate')[0]).toMatchObject({
    status: 'warn',
    message: expect.stringMatching(/^self-signed, valid for 127\.0\.0\.1/),
  });
  for (const name of ['data_dir', 'clock', 'migrations', 'master_key'])
    expect(byName(name)).toEqual([expect.objectContaining({ status: 'ok' })]);
  expect(byName('dns_resolver')).toHaveLength(1);
});

test('a port that another program holds fails: exit 1, the variable to change named', async () => {
  const squatter = net.createServer((socket) => socket.end());
  await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', () => resolve()));
  const port = (squatter.address() as net.AddressInfo).port;
  try {
    const { code, report } = await doctor({ ROLES: 'web,worker,mx', MX_PORT: String(port) });
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.checks).toContainEqual({
      check: 'port',
      status: 'fail',
      message: `MX_PORT ${port}: another program listens on it`,
      fix: expect.stringMatching(/set MX_PORT to a free port/),
    });
  } finally {
    await new Promise((resolve) => squatter.close(resolve));
  }
});

test('a secret file readable by other users fails: exit 1, the chmod named; the readable text says so too', async () => {
  // PGlite keeps the master key in the data directory; on PostgreSQL it is MAILSTEAD_SECRET, so the TLS key stands in.
  const file = path.join(server.dataDir, isPostgresRun() || postgresAdminUrl() ? 'tls/key.pem' : 'master.key');
  const mode = statSync(file).mode & 0o777;
  chmodSync(file, 0o644);
  try {
    const { code, report } = await doctor();
    expect(code).toBe(1);
    const [check] = report.checks.filter((entry) => entry.check === 'data_dir');
    expect(check.status).toBe('fail');
    expect(check.message).toContain(
      file.endsWith('master.key') ? 'master.key is readable by other users (mode 0644)' : 'tls/key.pem (0644)',
    );
    expect(check.fix).toBe(`chmod -R go-rwx ${server.dataDir} (the server also does it when it starts)`);
    const text = await runCli(['doctor'], { ...server.env, LOG_LEVEL: 'warn' });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^fail {2}data_dir +.* -> fix: chmod -R go-rwx /m);
  } finally {
    chmodSync(file, mode);
  }
});

// Last: it stops the suite's server.
test('with the server stopped, doctor reads the database itself and says the server is not running', async () => {
  await server.stop();
  const { code, report } = await doctor();
  expect(code).toBe(0);
  expect(report.checks.find((check) => check.check === 'public_url')).toMatchObject({
    status: 'skip',
    message: expect.stringMatching(/^server not running/),
  });
  expect(report.checks.find((check) => check.check === 'port')).toMatchObject({
    status: 'ok',
    message: `PORT ${server.port}: free`,
  });
  for (const name of ['clock', 'migrations', 'master_key'])
    expect(report.checks.find((check) => check.check === name)?.status).toBe('ok');
});
