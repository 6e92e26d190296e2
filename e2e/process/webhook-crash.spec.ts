import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { verifiedDomain } from '../support/sending';
import { freePort, startServer, type ServerHandle } from '../support/server';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * SIGKILL of the process that dispatches webhooks after 200-600 of 1,000 deliveries: after a restart
 * on the same data (directory or PostgreSQL database) every delivery arrives, and the only duplicates
 * are the attempts that were in flight at the kill (at most 4 to one webhook per process).
 * Then the same kill while a failing endpoint is backed off.
 */
const MESSAGES = 500;
const DELIVERIES = MESSAGES * 2; // message.reception and message.delivered of each
const IN_FLIGHT_PER_WEBHOOK = 4;

test('SIGKILL while 1,000 webhook deliveries are being sent: nothing lost, duplicates only from attempts in flight', async () => {
  test.setTimeout(300_000);
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const receiver = await new WebhookReceiver().start();
    cleanups.push(() => receiver.stop());
    // Slow enough that the kill lands mid-way.
    receiver.answer('/crash', { status: 200, body: 'ok', delayMs: 15 });
    const env: Record<string, string> = {
      ALLOW_PRIVATE_NETWORKS: 'true',
      DELIVERY_POLL_MS: '100',
      WEBHOOK_POLL_MS: '100',
      LOG_LEVEL: 'warn',
    };
    const adminUrl = postgresAdminUrl();
    if (adminUrl) {
      const scratch = await createScratchDatabase(adminUrl, 'mailstead_whcrash');
      cleanups.push(scratch.drop);
      Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: randomBytes(32).toString('base64url') });
    }
    let server: ServerHandle = await startServer({ env });
    cleanups.push(() => server.stop());
    const account = await createAccountWithKey(server.env, 'Webhook crash');
    const api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    const sender = `whcrash-${Date.now().toString(36)}.example.com`;
    await verifiedDomain(api, sender);
    const webhook = await api.post(api.account('/webhooks'), {
      name: 'Crash',
      url: receiver.url('/crash'),
      scope: 'global',
      on_reception: true,
      on_delivered: true,
    });
    expect(webhook.status).toBe(201);

    for (let request = 0; request < MESSAGES / 100; request++) {
      const sent = await api.post(api.account('/messages'), {
        from: { email: `crash@${sender}` },
        recipients: Array.from({ length: 100 }, (_, index) => ({ email: `r${request}-${index}@rcpt.example` })),
        subject: 'Crash',
        text_content: 'x',
        sandbox: true,
      });
      expect(sent.status).toBe(202);
    }

    const distinct = () => new Set(receiver.to('/crash').map((hook) => hook.headers['webhook-id'])).size;
    const killAfter = 200 + Math.floor(Math.random() * 400);
    await expect.poll(distinct, { timeout: 120_000, intervals: [20] }).toBeGreaterThanOrEqual(killAfter);
    server.process.kill('SIGKILL');
    await server.exited;
    const receivedAtKill = distinct();
    expect(receivedAtKill, 'everything was delivered before the kill').toBeLessThan(DELIVERIES);

    server = await startServer({ dataDir: server.dataDir, env: { ...env, PORT: String(await freePort()) } });
    await expect.poll(distinct, { timeout: 180_000, intervals: [100] }).toBe(DELIVERIES);
    // Anything still to come (a retry of an attempt that was in flight) would come now.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const ids = receiver.to('/crash').map((hook) => String(hook.headers['webhook-id']));
    const duplicates = ids.length - new Set(ids).size;
    console.log(
      `killed after ${receivedAtKill}/${DELIVERIES} deliveries; ${duplicates} duplicates; ${DELIVERIES - new Set(ids).size} lost`,
    );
    expect(new Set(ids).size).toBe(DELIVERIES);
    expect(duplicates).toBeLessThanOrEqual(IN_FLIGHT_PER_WEBHOOK);
    const restarted = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    const after = (await restarted.get(restarted.account(`/webhooks/${webhook.body.id}`))).body;
    expect(after.success_count).toBeGreaterThanOrEqual(DELIVERIES - receivedAtKill);
    expect(after.errors_since_last_success).toBe(0);
  } finally {
    for (const step of cleanups.reverse()) await step().catch(() => {});
  }
});

test('SIGKILL while a failing endpoint is backed off: it is probed, not stormed; after a restart with the endpoint back, every delivery arrives', async () => {
  test.setTimeout(300_000);
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const receiver = await new WebhookReceiver().start();
    cleanups.push(() => receiver.stop());
    receiver.answer('/backoff', { status: 503, body: 'down for maintenance' });
    // Short steps so the test sees several probes; long enough that no delivery uses up its schedule.
    const env: Record<string, string> = {
      ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_SCHEDULE: '1,2,2,2,2,2,2,2,2,2',
      LOG_LEVEL: 'warn',
    };
    const adminUrl = postgresAdminUrl();
    if (adminUrl) {
      const scratch = await createScratchDatabase(adminUrl, 'mailstead_whbackoff');
      cleanups.push(scratch.drop);
      Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: randomBytes(32).toString('base64url') });
    }
    let server: ServerHandle = await startServer({ env });
    cleanups.push(() => server.stop());
    const account = await createAccountWithKey(server.env, 'Webhook backoff');
    const api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    const sender = `whbackoff-${Date.now().toString(36)}.example.com`;
    await verifiedDomain(api, sender);
    const webhook = await api.post(api.account('/webhooks'), {
      name: 'Backoff',
      url: receiver.url('/backoff'),
      scope: 'global',
      on_reception: true,
    });
    expect(webhook.status).toBe(201);
    for (const batch of [0, 1]) {
      const sent = await api.post(api.account('/messages'), {
        from: { email: `backoff@${sender}` },
        recipients: Array.from({ length: 100 }, (_, index) => ({ email: `r${batch}-${index}@rcpt.example` })),
        subject: 'Backoff',
        text_content: 'x',
        sandbox: true,
      });
      expect(sent.status).toBe(202);
    }

    // 200 deliveries waiting, and over 5 s the endpoint sees a few probes, not hundreds of attempts.
    await expect
      .poll(async () => (await api.get(api.account(`/webhooks/${webhook.body.id}`))).body.errors_since_last_success, {
        timeout: 30_000,
      })
      .toBeGreaterThanOrEqual(2);
    const before = receiver.to('/backoff').length;
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const during = receiver.to('/backoff').length - before;
    expect(during).toBeLessThanOrEqual(5);
    server.process.kill('SIGKILL');
    await server.exited;

    receiver.answer('/backoff', { status: 200, body: 'ok' });
    const killedAt = receiver.received.length;
    server = await startServer({ dataDir: server.dataDir, env: { ...env, PORT: String(await freePort()) } });
    const deliveredAfter = () =>
      new Set(
        receiver.received
          .slice(killedAt)
          .filter((hook) => hook.path === '/backoff')
          .map((hook) => hook.headers['webhook-id']),
      ).size;
    await expect.poll(deliveredAfter, { timeout: 120_000, intervals: [200] }).toBe(200);
    const restarted = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    expect((await restarted.get(restarted.account(`/webhooks/${webhook.body.id}`))).body).toMatchObject({
      enabled: true,
      errors_since_last_success: 0,
    });
  } finally {
    for (const step of cleanups.reverse()) await step().catch(() => {});
  }
});
