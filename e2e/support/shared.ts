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

/** Each suite makes its own account, so suites never see each other's data. */
export async function newAccount(name = 'Test account', ownerEmail?: string) {
  const server = sharedServer();
  const created = await createAccountWithKey(server.cliEnv, name, ownerEmail);
  return { ...created, api: new ApiClient(server.baseUrl, server.dataDir, created.apiKey, created.accountId) };
}
