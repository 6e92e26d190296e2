import { spawn } from 'node:child_process';
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

/** A new account with an all-scope key, made through the CLI like an operator would. */
export async function createAccountWithKey(
  env: Record<string, string | undefined>,
  name = 'Test account',
  ownerEmail = uniqueEmail(),
): Promise<{ accountId: string; ownerId: string; apiKey: string; ownerEmail: string }> {
  const result = await runCli(
    [
      'accounts',
      'create',
      '--name',
      name,
      '--owner-email',
      ownerEmail,
      '--owner-password',
      OWNER_PASSWORD,
      '--api-key',
      '--json',
    ],
    env,
  );
  if (result.code !== 0) throw new Error(`accounts create failed (${result.code}): ${result.stderr}`);
  const created = JSON.parse(result.stdout) as { account_id: string; owner_id: string; api_key: string };
  return { accountId: created.account_id, ownerId: created.owner_id, apiKey: created.api_key, ownerEmail };
}
