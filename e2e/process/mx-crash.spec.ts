import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import nodemailer from 'nodemailer';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { verifiedDomain } from '../support/sending';
import { freePort, startServer, type ServerHandle } from '../support/server';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * SIGKILL of the process that runs the MX and the dispatcher right after the MX said 250 to 20
 * messages whose route deliveries are still waiting: after a restart on the same data every one
 * arrives, the only duplicates being attempts in flight at the kill.
 */
const MESSAGES = 20;
const IN_FLIGHT_PER_TARGET = 4;

test('SIGKILL after the MX accepted 20 routed messages: every one reaches the route after a restart', async () => {
  test.setTimeout(180_000);
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const receiver = await new WebhookReceiver().start();
    cleanups.push(() => receiver.stop());
    // Slow answers: at the kill most deliveries are still waiting.
    receiver.answer('/crash', { status: 200, body: 'ok', delayMs: 1500 });
    const mxPort = await freePort();
    const env: Record<string, string> = {
      ROLES: 'web,worker,mx',
      MX_PORT: String(mxPort),
      ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_POLL_MS: '100',
      LOG_LEVEL: 'warn',
    };
    const adminUrl = postgresAdminUrl();
    if (adminUrl) {
      const scratch = await createScratchDatabase(adminUrl, 'mailstead_mxcrash');
      cleanups.push(scratch.drop);
      Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: randomBytes(32).toString('base64url') });
    }
    let server: ServerHandle = await startServer({ env });
    cleanups.push(() => server.stop());
    const account = await createAccountWithKey(server.env, 'MX crash');
    const api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    const domain = `mxcrash-${Date.now().toString(36)}.example.com`;
    await verifiedDomain(api, domain);
    expect(
      (await api.post(api.account('/routes'), { name: 'Crash', url: receiver.url('/crash'), recipient: `*@${domain}` }))
        .status,
    ).toBe(201);

    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: mxPort,
      secure: false,
      tls: { rejectUnauthorized: false },
      pool: true,
      maxConnections: 2,
    });
    await Promise.all(
      Array.from({ length: MESSAGES }, (_, index) =>
        transport.sendMail({
          from: 'sender@example.org',
          to: `m${index}@${domain}`,
          subject: `crash ${index}`,
          text: 'x',
        }),
      ),
    );
    transport.close();
    server.process.kill('SIGKILL');
    await server.exited;
    const distinct = () => new Set(receiver.to('/crash').map((hook) => hook.json?.data?.to)).size;
    const receivedAtKill = distinct();
    expect(receivedAtKill, 'everything was delivered before the kill').toBeLessThan(MESSAGES);

    receiver.answer('/crash', { status: 200, body: 'ok' });
    server = await startServer({
      dataDir: server.dataDir,
      env: { ...env, MX_PORT: String(await freePort()), PORT: String(await freePort()) },
    });
    await expect.poll(distinct, { timeout: 60_000, intervals: [100] }).toBe(MESSAGES);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const ids = receiver.to('/crash').map((hook) => String(hook.headers['webhook-id']));
    expect(new Set(ids).size).toBe(MESSAGES);
    expect(ids.length - MESSAGES).toBeLessThanOrEqual(IN_FLIGHT_PER_TARGET);
  } finally {
    for (const step of cleanups.reverse()) await step().catch(() => {});
  }
});
