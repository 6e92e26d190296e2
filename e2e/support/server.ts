import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent, fetch } from 'undici';
import { CLI, ROOT } from './paths';

export type ServerHandle = {
  baseUrl: string;
  port: number;
  dataDir: string;
  env: Record<string, string | undefined>;
  process: ChildProcess;
  logFile: string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function tempDataDir(prefix = 'ms-'): string {
  // Short: the control socket path must fit in 108 bytes.
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** An undici dispatcher that trusts the server's own self-signed certificate (and nothing else). */
/** `localAddress`: connect from another loopback address (limits kept per client address). */
export function trustingAgent(dataDir: string, localAddress?: string): Agent {
  // undici takes the local address on the agent, not in `connect` (there it is ignored).
  return new Agent({ localAddress, connect: { ca: readFileSync(path.join(dataDir, 'tls', 'cert.pem'), 'utf8') } });
}

/** The database environment of the run: PGlite by default, PostgreSQL when the suite says so. */
export function databaseEnv(): Record<string, string | undefined> {
  return process.env.MAILSTEAD_TEST_DATABASE_URL
    ? {
        DATABASE_URL: process.env.MAILSTEAD_TEST_DATABASE_URL,
        MAILSTEAD_SECRET: process.env.MAILSTEAD_TEST_SECRET,
        // The scale-out configuration: shared rate-limit counters in Redis when the run has one.
        REDIS_URL: process.env.MAILSTEAD_TEST_REDIS_URL ?? '',
      }
    : { DATABASE_URL: '', MAILSTEAD_SECRET: '', REDIS_URL: '' };
}

export const isPostgresRun = () => Boolean(process.env.MAILSTEAD_TEST_DATABASE_URL);

/**
 * PGlite: a server started on an empty data directory gets a copy of the run's migrated, empty
 * database and the master key it was written under (global-setup.ts), instead of running initdb
 * and every migration itself (~6 s of CPU per start, ~50 starts a run). First starts proper are the
 * shared server's and those asked for with `freshDatabase`.
 */
function copyPgliteTemplate(dataDir: string, env: Record<string, string | undefined>) {
  const template = process.env.MAILSTEAD_TEST_PGLITE_TEMPLATE;
  if (!template || env.DATABASE_URL || env.MAILSTEAD_SECRET) return;
  if (['pglite', 'master.key'].some((name) => existsSync(path.join(dataDir, name)))) return;
  cpSync(template, dataDir, { recursive: true });
}

/**
 * Every server this test worker started and that is still running: killed when the worker exits, so
 * that a spec which loses track of one (a restart it did not hand back) cannot leave it polling and
 * taking CPU for the rest of the run (one did, for half an hour, before mx-suite.ts stopped its current server).
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts `mailstead start` as a user would, and waits until /v2 answers over HTTPS. */
export async function startServer(
  options: {
    env?: Record<string, string | undefined>;
    dataDir?: string;
    waitForReady?: boolean;
    nodeArgs?: string[];
    /** PGlite: create and migrate the database as on a first start, not from the run's template. */
    freshDatabase?: boolean;
  } = {},
): Promise<ServerHandle> {
  const dataDir = options.dataDir ?? tempDataDir();
  const port = options.env?.PORT ? Number(options.env.PORT) : await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...databaseEnv(),
    DATA_DIR: dataDir,
    PORT: String(port),
    ROLES: 'web,worker',
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    // Browsers and next-auth use this origin; it matches the address the tests connect to.
    PUBLIC_URL: `https://127.0.0.1:${port}`,
    // Names the DNS records point at, and the resolver the run controls.
    MAIL_HOSTNAME: 'mx.mailstead.test',
    DNS_SERVERS: process.env.MAILSTEAD_TEST_DNS ?? '127.0.0.1:9',
    DNS_TIMEOUT_MS: '1500',
    // Free ports, not the fixed defaults, for any server of the run that has the smtp role.
    SMTP_SUBMISSION_PORT: String(await freePort()),
    SMTP_SUBMISSION_TLS_PORT: String(await freePort()),
    // One process per server (the default on PostgreSQL is one per core): the run starts many
    // servers on a small machine; specs of the cluster set WORKERS themselves.
    WORKERS: '1',
    ...options.env,
  };
  if (!options.freshDatabase) copyPgliteTemplate(dataDir, env);
  const logFile = path.join(dataDir, 'server.log');
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, 'start', '--no-build'], {
    cwd: ROOT,
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const handle: ServerHandle = {
    baseUrl: `https://127.0.0.1:${port}`,
    port,
    dataDir,
    env,
    process: child,
    logFile,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  if (options.waitForReady !== false) {
    // A server that never became ready is stopped, not left running behind a failed suite.
    await waitForReady(handle).catch(async (error: unknown) => {
      child.kill('SIGKILL');
      await exited;
      throw error;
    });
  }
  return handle;
}

export async function waitForReady(handle: ServerHandle, timeoutMs = 110_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void handle.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) {
      // A death by signal has no code: name the signal, and let the last lines reach the log first.
      const how = exitCode ?? `signal ${handle.process.signalCode}`;
      await new Promise((resolve) => setTimeout(resolve, 200));
      throw new Error(`server exited with ${how}:\n${readFileSync(handle.logFile, 'utf8')}`);
    }
    try {
      const response = await fetch(`${handle.baseUrl}/v2/openapi.json`, { dispatcher: trustingAgent(handle.dataDir) });
      if (response.status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`server did not become ready:\n${readFileSync(handle.logFile, 'utf8')}`);
}
