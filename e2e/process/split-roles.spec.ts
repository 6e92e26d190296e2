import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { CountingMx } from '../support/counting-mx';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { routeDomainToLoopback, verifiedDomain } from '../support/sending';
import { startServer, type ServerHandle } from '../support/server';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Roles split over two processes on one PostgreSQL database, as on two hosts: ROLES=web accepts
 * through /v2, ROLES=worker (no listener at all) delivers and dispatches webhooks.
 */
const REQUESTS = 20;
const RECIPIENTS_PER_REQUEST = 10;
const MESSAGES = REQUESTS * RECIPIENTS_PER_REQUEST;

test('ROLES=web and ROLES=worker on one PostgreSQL: the web process accepts, the worker delivers each message once and fires its webhooks', async () => {
  const adminUrl = postgresAdminUrl();
  test.skip(
    !adminUrl,
    'needs the PostgreSQL run (MAILSTEAD_TEST_POSTGRES_URL): the embedded database allows one process',
  );
  test.setTimeout(180_000);
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const scratch = await createScratchDatabase(adminUrl!, 'mailstead_split');
    cleanups.push(scratch.drop);
    const mx = await new CountingMx().start();
    cleanups.push(() => mx.stop());
    const receiver = await new WebhookReceiver().start();
    cleanups.push(() => receiver.stop());
    const env = {
      DATABASE_URL: scratch.url,
      MAILSTEAD_SECRET: randomBytes(32).toString('base64url'),
      ALLOW_PRIVATE_NETWORKS: 'true',
      SMTP_DELIVERY_PORT: String(mx.port),
      DELIVERY_POLL_MS: '100',
      WEBHOOK_POLL_MS: '100',
      RETRY_SCHEDULE: '5',
    };

    const web: ServerHandle = await startServer({ env: { ...env, ROLES: 'web' } });
    cleanups.push(() => web.stop());
    // No HTTP listener to wait for: ready once it has registered as a worker.
    const worker: ServerHandle = await startServer({
      env: { ...env, ROLES: 'worker', LOG_LEVEL: 'info' },
      waitForReady: false,
    });
    cleanups.push(() => worker.stop());
    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    cleanups.push(() => db.end());
    await expect
      .poll(async () => (await db.query('select pid from workers')).rows.map((row) => row.pid), { timeout: 60_000 })
      .toEqual([worker.process.pid]);

    const account = await createAccountWithKey(web.env, 'Split roles');
    const api = new ApiClient(web.baseUrl, web.dataDir, account.apiKey, account.accountId);
    const stamp = `split-${Date.now().toString(36)}`;
    const sender = `${stamp}.example.com`;
    const rcptDomain = `to-${stamp}.example`;
    await verifiedDomain(api, sender);
    await routeDomainToLoopback(rcptDomain);
    const hook = await api.post(api.account('/webhooks'), {
      name: 'Split',
      url: receiver.url('/split'),
      scope: 'global',
      on_delivered: true,
    });
    expect(hook.status).toBe(201);

    const recipients = Array.from({ length: MESSAGES }, (_, index) => `m${index}@${rcptDomain}`);
    const sent = await Promise.all(
      Array.from({ length: REQUESTS }, (_, request) =>
        api.post(api.account('/messages'), {
          from: { email: `split@${sender}` },
          recipients: recipients
            .slice(request * RECIPIENTS_PER_REQUEST, (request + 1) * RECIPIENTS_PER_REQUEST)
            .map((email) => ({ email })),
          subject: 'Split roles',
          text_content: 'accepted by the web process, delivered by the worker',
        }),
      ),
    );
    expect(sent.map((response) => response.status)).toEqual(Array(REQUESTS).fill(202));

    const ofRun = (recipient: string) => recipient.endsWith(`@${rcptDomain}`);
    await expect.poll(() => mx.count(ofRun).distinct, { timeout: 90_000, intervals: [100] }).toBe(MESSAGES);
    const delivered = () => receiver.to('/split').filter((received) => received.json?.type === 'message.delivered');
    await expect
      .poll(() => new Set(delivered().map((received) => received.json.data.recipient)).size, {
        timeout: 60_000,
        intervals: [100],
      })
      .toBe(MESSAGES);
    // Anything late (a second copy, a repeated webhook) would arrive now.
    await new Promise((resolve) => setTimeout(resolve, 1500));

    const copies = mx.copiesByRecipient(ofRun);
    expect([...copies.keys()].sort()).toEqual([...recipients].sort());
    expect([...copies.values()].filter((count) => count !== 1)).toEqual([]);
    expect(delivered()).toHaveLength(MESSAGES);
    expect(new Set(delivered().map((received) => received.headers['webhook-id'])).size).toBe(MESSAGES);
    const { rows } = await db.query(
      `select status, count(*)::int as n from messages where recipient like $1 group by status`,
      [`%@${rcptDomain}`],
    );
    expect(rows).toEqual([{ status: 'delivered', n: MESSAGES }]);
    // The web process never registered as a worker, and the worker process served no HTTP.
    expect((await db.query('select pid from workers')).rows.map((row) => row.pid)).toEqual([worker.process.pid]);
    expect(readFileSync(worker.logFile, 'utf8')).not.toMatch(/Mailstead is listening/);

    expect(await worker.stop()).toBe(0);
    expect(await web.stop()).toBe(0);
  } finally {
    for (const step of cleanups.reverse()) await step().catch(() => {});
  }
});
