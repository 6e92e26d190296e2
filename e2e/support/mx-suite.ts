import { createAccountWithKey } from './cli';
import { ApiClient } from './client';
import { TestMx } from './mx-server';
import { createScratchDatabase, postgresAdminUrl } from './postgres';
import { routeDomainToLoopback, verifiedDomain } from './sending';
import { startServer, type ServerHandle } from './server';

export type MxSuite = { server: ServerHandle; mx: TestMx; api: ApiClient; stop: () => Promise<void> };

export type LoopbackMx = { port: number; stop: () => Promise<void> };
export type ServerWithMx<M extends LoopbackMx = TestMx> = { server: ServerHandle; mx: M; stop: () => Promise<void> };

/**
 * A server of its own that delivers to a loopback MX (a TestMx, or the started `mx` given), on its
 * own scratch database in the PostgreSQL run, with no account yet. `env` adds settings of the server.
 */
export async function startServerWithMx<M extends LoopbackMx = TestMx>(options: {
  name: string;
  env?: Record<string, string>;
  mx?: M;
}): Promise<ServerWithMx<M>> {
  const mx = options.mx ?? ((await new TestMx().start()) as unknown as M);
  const env: Record<string, string> = {
    ALLOW_PRIVATE_NETWORKS: 'true',
    SMTP_DELIVERY_PORT: String(mx.port),
    DELIVERY_POLL_MS: '100',
    ...options.env,
  };
  let drop: (() => Promise<void>) | null = null;
  const adminUrl = postgresAdminUrl();
  if (adminUrl) {
    const scratch = await createScratchDatabase(
      adminUrl,
      `mailstead_${options.name.replace(/\W+/g, '_').toLowerCase()}`,
    );
    drop = scratch.drop;
    Object.assign(env, {
      DATABASE_URL: scratch.url,
      MAILSTEAD_SECRET: `${options.name}-secret-${Date.now().toString(36)}-0000000000`,
    });
  }
  const server = await startServer({ env });
  const suite: ServerWithMx<M> = {
    server,
    mx,
    // The suite's server as it is now: a spec that restarts it (after a SIGKILL) puts the new one
    // in `suite.server`, and stopping the first one again left the second running after the run.
    async stop() {
      await suite.server.stop();
      await mx.stop();
      await drop?.();
    },
  };
  return suite;
}

/**
 * A server with a loopback MX (startServerWithMx), an account with the verified sending domain
 * `sender`, and `recipientDomain` routed to the MX. For suites that look at mail as it arrives. `env`
 * adds settings of the server (a system sender on `sender`, say: the domain is verified once the
 * server is up).
 */
export async function startMxSuite(options: {
  name: string;
  sender: string;
  recipientDomain: string;
  env?: Record<string, string>;
}): Promise<MxSuite> {
  const started = await startServerWithMx({
    name: options.name,
    env: { DNS_CHECK_CACHE_SECONDS: '0', ...options.env },
  });
  const account = await createAccountWithKey(started.server.env, options.name);
  const api = new ApiClient(started.server.baseUrl, started.server.dataDir, account.apiKey, account.accountId);
  await verifiedDomain(api, options.sender);
  await routeDomainToLoopback(options.recipientDomain);
  return { ...started, api };
}
