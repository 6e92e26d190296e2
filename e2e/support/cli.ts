import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { CLI, ROOT } from './paths';

export type CliResult = { code: number | null; stdout: string; stderr: string };

/** Runs `mailstead ...` as an operator would. */
export function runCli(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data) => (stdout += data));
    child.stderr.on('data', (data) => (stderr += data));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

let counter = 0;

export function uniqueEmail(prefix = 'owner'): string {
  return `${prefix}-${process.pid}-${Date.now()}-${counter++}@example.com`;
}

export const OWNER_PASSWORD = 'correct horse battery';

type CreatedAccount = { accountId: string; ownerId: string; apiKey: string; ownerEmail: string };
type CreateArgs = { name: string; owner_email: string; owner_password: string; with_api_key: true };

/**
 * A new account with an all-scope key, as an operator makes one with `mailstead accounts create`.
 * When a server holds an embedded database, the command goes straight to its control socket, as the
 * CLI would send it: a CLI process costs ~2 s of CPU and suites make hundreds of accounts a run
 * (cli/accounts.spec.ts runs the command itself). Otherwise, and if the socket does not answer, the CLI.
 */
export async function createAccountWithKey(
  env: Record<string, string | undefined>,
  name = 'Test account',
  ownerEmail = uniqueEmail(),
): Promise<CreatedAccount> {
  const args: CreateArgs = { name, owner_email: ownerEmail, owner_password: OWNER_PASSWORD, with_api_key: true };
  const created = (await controlCommand<Created>(env, 'accounts.create', args)) ?? (await viaCli(env, args));
  return { accountId: created.account_id, ownerId: created.owner_id, apiKey: created.api_key, ownerEmail };
}

type Created = { account_id: string; owner_id: string; api_key: string };

async function viaCli(env: Record<string, string | undefined>, args: CreateArgs): Promise<Created> {
  const result = await runCli(
    [
      'accounts',
      'create',
      '--name',
      args.name,
      '--owner-email',
      args.owner_email,
      '--owner-password',
      args.owner_password,
      '--api-key',
      '--json',
    ],
    env,
  );
  if (result.code !== 0) throw new Error(`accounts create failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as Created;
}

/**
 * An operator command sent straight to the control socket of the server running on env's DATA_DIR,
 * as the CLI sends it (lib/server/control-socket.ts: one JSON line each way): on PGlite, and on
 * PostgreSQL when the server is one process. Null when no server answers there (a cluster, or no
 * server running): run the CLI then.
 */
export async function controlCommand<T>(
  env: Record<string, string | undefined>,
  command: string,
  args: Record<string, unknown>,
): Promise<T | null> {
  const socketFile = env.DATA_DIR ? path.join(env.DATA_DIR, 'mailstead.sock') : null;
  if (!socketFile || !existsSync(socketFile)) return null;
  const answer = await new Promise<string | null>((resolve) => {
    const socket = net.createConnection(socketFile);
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ command, args })}\n`));
    socket.on('data', (data: string) => (buffer += data));
    socket.on('end', () => resolve(buffer));
    socket.on('error', () => resolve(null));
  });
  if (answer === null) return null;
  const response = JSON.parse(answer) as { ok: true; result: T } | { ok: false; message: string };
  if (!response.ok) throw new Error(`${command} failed: ${response.message}`);
  return response.result;
}
