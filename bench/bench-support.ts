import { readdirSync, readFileSync } from 'node:fs';
import { Agent, fetch } from 'undici';
import { randomBytes } from 'node:crypto';
import type { TestDnsServer } from '../e2e/support/dns-server';
import { createScratchDatabase } from '../e2e/support/postgres';
import type { ServerHandle } from '../e2e/support/server';

export const POSTGRES_URL = process.env.MAILSTEAD_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type DatabaseName = 'PGlite' | 'PostgreSQL';

/** CPU time (user + system) a process has used, in ms, from /proc: less sensitive to a busy machine than rates. */
/** CPU time of a process and of its descendants still running (a cluster's workers), in ms. */
export function cpuMs(pid: number): number {
  let total = 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean))
        total += cpuMs(Number(child));
    }
  } catch {
    // the process is gone
  }
  return total;
}

/** Servers this run started, killed when it exits (a failed run must not leave them running). */
const servers: ServerHandle[] = [];
process.on('exit', () =>
  servers.forEach((server) => server.process.exitCode === null && server.process.kill('SIGKILL')),
);
export function tracked(server: ServerHandle): ServerHandle {
  servers.push(server);
  return server;
}

export function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** One API call with the bearer key; throws on an unexpected status. */
export async function api(
  server: ServerHandle,
  agent: Agent,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  expected = 0,
): Promise<Record<string, unknown> & { dns_records?: unknown }> {
  const response = await fetch(server.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    dispatcher: agent,
  });
  const text = await response.text();
  if ((expected && response.status !== expected) || response.status >= 400)
    throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : {};
}

/**
 * A bench's database: the data directory's PGlite, or a scratch PostgreSQL database of its own
 * (with a fresh secret), and settings the shell might leak in blanked. `drop` removes the scratch database.
 */
export async function benchDatabaseEnv(
  database: DatabaseName,
  dataDir: string,
  databaseName: string,
): Promise<{ env: Record<string, string>; drop: (() => Promise<void>) | null }> {
  const env: Record<string, string> = {
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    MAILSTEAD_SECRET: '',
    REDIS_URL: '',
  };
  if (database !== 'PostgreSQL') return { env, drop: null };
  const scratch = await createScratchDatabase(POSTGRES_URL, databaseName);
  return {
    env: { ...env, DATABASE_URL: scratch.url, MAILSTEAD_SECRET: randomBytes(32).toString('base64url') },
    drop: scratch.drop,
  };
}

/**
 * The environment of a bench server that delivers to a loopback sink through the test resolver
 * (`sink.example` points at it), on a scratch database of its own for PostgreSQL, blank where the
 * shell might leak settings in. `drop` removes the scratch database.
 */
export async function benchServerEnv(
  database: DatabaseName,
  dns: TestDnsServer,
  options: { dataDir: string; sinkPort: number; databaseName: string; extra?: Record<string, string> },
): Promise<{ env: Record<string, string>; drop: (() => Promise<void>) | null }> {
  const base = await benchDatabaseEnv(database, options.dataDir, options.databaseName);
  const env: Record<string, string> = {
    ...base.env,
    DNS_SERVERS: `127.0.0.1:${dns.port}`,
    ALLOW_PRIVATE_NETWORKS: 'true',
    SMTP_DELIVERY_PORT: String(options.sinkPort),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    MAILSTEAD_TEST_DNS: '',
    ...options.extra,
  };
  const { drop } = base;
  process.env.MAILSTEAD_TEST_DNS = `127.0.0.1:${dns.port}`;
  dns.set('sink.example', 'MX', [{ exchange: 'mx.sink.example', priority: 10 }]);
  dns.set('mx.sink.example', 'A', ['127.0.0.1']);
  return { env, drop };
}
