import { test } from '@playwright/test';
import { createAccountWithKey } from './cli';
import { ApiClient } from './client';
import { createScratchDatabase, postgresAdminUrl } from './postgres';
import { startServer, type ServerHandle } from './server';

/** A server of its own (on its own scratch database in the PostgreSQL run), with these limits. */
export function ownServer(limits: Record<string, string>, secret: string) {
  const handle: { server: ServerHandle | null; drop: (() => Promise<void>) | null } = { server: null, drop: null };
  test.beforeAll(async () => {
    const env = { ...limits };
    const adminUrl = postgresAdminUrl();
    if (adminUrl) {
      const scratch = await createScratchDatabase(adminUrl, 'mailstead_rate');
      handle.drop = scratch.drop;
      Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: secret });
    }
    handle.server = await startServer({ env });
  });
  test.afterAll(async () => {
    await handle.server?.stop();
    await handle.drop?.();
  });
  return () => handle.server!;
}

export async function newApi(server: ServerHandle) {
  const account = await createAccountWithKey(server.env);
  return new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
}
