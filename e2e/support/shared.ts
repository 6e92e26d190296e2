import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createAccountWithKey } from './cli';
import { ApiClient } from './client';
import { databaseEnv } from './server';

/** The shared server of the run (see global-setup.ts). */
export function sharedServer() {
  const baseUrl = process.env.MAILSTEAD_BASE_URL;
  const dataDir = process.env.MAILSTEAD_DATA_DIR;
  if (!baseUrl || !dataDir)
    throw new Error('MAILSTEAD_BASE_URL is not set: run the suite through playwright.config.ts');
  return { baseUrl, dataDir, cliEnv: { ...databaseEnv(), DATA_DIR: dataDir } };
}

/** The shared server's last log lines that mention `needle` (an id), for a failure's message. */
export function serverLinesAbout(needle: string, most = 20): string {
  const log = readFileSync(path.join(sharedServer().dataDir, 'server.log'), 'utf8');
  const lines = log.split('\n').filter((line) => line.includes(needle));
  return `server log lines about ${needle} (${lines.length}):\n${lines.slice(-most).join('\n')}`;
}

/** Each suite makes its own account, so suites never see each other's data. */
export async function newAccount(name = 'Test account', ownerEmail?: string) {
  const server = sharedServer();
  const created = await createAccountWithKey(server.cliEnv, name, ownerEmail);
  return { ...created, api: new ApiClient(server.baseUrl, server.dataDir, created.apiKey, created.accountId) };
}
