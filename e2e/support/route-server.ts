import { createAccountWithKey } from './cli';
import { ApiClient } from './client';
import { createScratchDatabase, postgresAdminUrl } from './postgres';
import { freePort, startServer, type ServerHandle } from './server';

export type RouteServer = { server: ServerHandle; api: ApiClient; mxPort: number; stop: () => Promise<void> };

/**
 * A server of its own that runs the MX and may call loopback (ALLOW_PRIVATE_NETWORKS), with fast
 * route retries and an automatic disable after three failures in a row: for suites that watch
 * routed mail arrive at a loopback receiver. Its own scratch database in the PostgreSQL run.
 */
export async function startRouteServer(name: string, extraEnv: Record<string, string> = {}): Promise<RouteServer> {
  const mxPort = await freePort();
  const env: Record<string, string> = {
    ROLES: 'web,worker,mx',
    MX_PORT: String(mxPort),
    ALLOW_PRIVATE_NETWORKS: 'true',
    DNS_CHECK_CACHE_SECONDS: '0',
    WEBHOOK_POLL_MS: '100',
    WEBHOOK_TIMEOUT_MS: '3000',
    ROUTE_RETRY_SCHEDULE: '1,1,1',
    WEBHOOK_DISABLE_AFTER_FAILURES: '3',
    WEBHOOK_DISABLE_AFTER_SECONDS: '0',
    ...extraEnv,
  };
  let drop: (() => Promise<void>) | null = null;
  const adminUrl = postgresAdminUrl();
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, `mailstead_${name.replace(/\W+/g, '_').toLowerCase()}`);
    drop = scratch.drop;
    Object.assign(env, {
      DATABASE_URL: scratch.url,
      MAILSTEAD_SECRET: `${name}-secret-${Date.now().toString(36)}-0000000000000000`,
    });
  }
  const server = await startServer({ env });
  const account = await createAccountWithKey(server.env, name);
  const api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
  return {
    server,
    api,
    mxPort,
    async stop() {
      await server.stop();
      await drop?.();
    },
  };
}
