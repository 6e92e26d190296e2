import { readFileSync } from 'node:fs';
import { Agent, fetch } from 'undici';
import type { ServerHandle } from '../e2e/support/server';

export const POSTGRES_URL = process.env.MAILSTEAD_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type DatabaseName = 'PGlite' | 'PostgreSQL';

/** CPU time (user + system) a process has used, in ms, from /proc: less sensitive to a busy machine than rates. */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** Servers this run started, killed when it exits (a failed run must not leave them running). */
const servers: ServerHandle[] = [];
process.on('exit', () => servers.forEach((server) => server.process.exitCode === null && server.process.kill('SIGKILL')));
export function tracked(server: ServerHandle): ServerHandle {
  servers.push(server);
  return server;
}

export function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** One API call with the bearer key; throws on an unexpected status. */
export async function api(server: ServerHandle, agent: Agent, key: string, method: string, path: string, body?: unknown, expected = 0): Promise<Record<string, unknown> & { dns_records?: unknown }> {
  const response = await fetch(server.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    dispatcher: agent,
  });
  const text = await response.text();
  if ((expected && response.status !== expected) || response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : {};
}
