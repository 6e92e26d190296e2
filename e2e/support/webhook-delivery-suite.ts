import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { createAccountWithKey } from './cli';
import { ApiClient } from './client';
import { DnsControl } from './dns-server';
import { TestMx } from './mx-server';
import { createScratchDatabase, postgresAdminUrl } from './postgres';
import { BACKGROUND_POLL_INTERVALS, routeDomainToLoopback, verifiedDomain } from './sending';
import { freePort, startServer, tempDataDir, type ServerHandle } from './server';
import { WebhookReceiver, type ReceivedHook } from './webhook-receiver';

export type WebhookDeliverySuite = {
  receiver: WebhookReceiver;
  server: ServerHandle;
  mx: TestMx;
  api: ApiClient;
  accountId: string;
  /** The account's verified sending domain. */
  sender: string;
  /** Routed to the loopback MX. */
  rcptDomain: string;
  /** The account's webhooks path, with `suffix`. */
  hooks: (suffix?: string) => string;
  /** Sends one sandboxed message to `label`@rcptDomain; its id. */
  sendSandbox: (label: string) => Promise<string>;
  /** The requests the receiver got at `receiverPath`, once `isDone` holds for them. */
  waitForHooks: (
    receiverPath: string,
    isDone: (hooks: ReceivedHook[]) => boolean,
    timeout?: number,
  ) => Promise<ReceivedHook[]>;
  stop: () => Promise<void>;
};

/**
 * A server of its own that may call loopback, with an HTTPS receiver it trusts (NODE_EXTRA_CA_CERTS),
 * fast webhook retries (1 s, three of them) and a disable after 3 failures, a loopback MX, and an
 * account with a verified sending domain. For the webhook delivery specs; `stamp` names the hosts.
 */
export async function startWebhookDeliverySuite(stamp: string): Promise<WebhookDeliverySuite> {
  const hostname = `receiver-${stamp}.mailstead.test`;
  let receiver: WebhookReceiver | undefined;
  let server: ServerHandle | undefined;
  let mx: TestMx | undefined;
  let dropDatabase: (() => Promise<void>) | null = null;
  const rcptDomain = `wh-rcpt-${stamp}.example`;
  const stop = async () => {
    await server?.stop();
    await receiver?.stop();
    await mx?.stop();
    await dropDatabase?.();
  };
  try {
    const tls = await WebhookReceiver.certificate(hostname);
    const listening = await new WebhookReceiver({ tls }).start();
    receiver = listening;
    await new DnsControl().setA(hostname, '127.0.0.1');
    mx = await new TestMx().start();
    const httpPort = await freePort();
    const dataDir = tempDataDir('ms-wh-');
    const caFile = path.join(dataDir, 'receiver-ca.pem');
    writeFileSync(caFile, tls.cert);
    const env: Record<string, string> = {
      ALLOW_PRIVATE_NETWORKS: 'true',
      // The receiver's self-signed certificate, trusted as a customer's real one would be.
      NODE_EXTRA_CA_CERTS: caFile,
      SMTP_DELIVERY_PORT: String(mx.port),
      HTTP_PORT: String(httpPort),
      DELIVERY_POLL_MS: '100',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_TIMEOUT_MS: '3000',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1',
      WEBHOOK_DISABLE_AFTER_FAILURES: '3',
      WEBHOOK_DISABLE_AFTER_SECONDS: '0',
    };
    const adminUrl = postgresAdminUrl();
    if (adminUrl) {
      const scratch = await createScratchDatabase(adminUrl, 'mailstead_webhooks');
      dropDatabase = scratch.drop;
      Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: 'webhooks-secret-webhooks-secret-000000001' });
    }
    server = await startServer({ env, dataDir });
    const account = await createAccountWithKey(server.env, 'Webhook delivery');
    const accountId = account.accountId;
    const api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    const sender = `wh-send-${stamp}.example.com`;
    await verifiedDomain(api, sender);
    await new DnsControl().setA(`t.${sender}`, '127.0.0.1');
    await api.post(api.account(`/domains/${sender}/check-dns`));
    await routeDomainToLoopback(rcptDomain);
    const hooks = (suffix = '') => api.account(`/webhooks${suffix}`);
    const sendSandbox = async (label: string) => {
      const sent = await api.post(api.account('/messages'), {
        from: { email: `news@${sender}` },
        recipients: [{ email: `${label}@${rcptDomain}` }],
        subject: label,
        text_content: 'x',
        sandbox: true,
      });
      expect(sent.status).toBe(202);
      return sent.body.data[0].id as string;
    };
    const waitForHooks = async (receiverPath: string, isDone: (hooks: ReceivedHook[]) => boolean, timeout = 30_000) => {
      await expect
        .poll(() => isDone(listening.to(receiverPath)), {
          timeout,
          intervals: BACKGROUND_POLL_INTERVALS,
          message: `webhook requests to ${receiverPath}`,
        })
        .toBe(true);
      return listening.to(receiverPath);
    };
    return { receiver, server, mx, api, accountId, sender, rcptDomain, hooks, sendSandbox, waitForHooks, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
