import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { eq, isNotNull, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal } from '@/lib/auth/principal';
import { createAccount } from '@/lib/core/accounts/create-account';
import type { Services } from '@/lib/core/context';
import { messageEventPayload } from '@/lib/core/events/message-event';
import { createTemplateRenderer } from '@/lib/core/templates/engine/template-renderer';
import { createWebhook } from '@/lib/core/webhooks/create-webhook';
import { MIGRATIONS_FOLDER, type Db } from '@/lib/db/client';
import * as schema from '@/lib/db/schema';
import { events, webhookDeliveries, webhooks, workers } from '@/lib/db/schema';
import { SecretBox } from '@/lib/shared/crypto';
import { newId } from '@/lib/shared/ids';
import { hostIdentity } from '@/lib/workers/liveness';
import { startWebhookDispatcher } from '@/lib/workers/webhook-loop';
import { TEST_CONFIG, TestDns, as, testAttemptLimiter } from '../../support/memory-services';

/**
 * Any number of worker processes share the outbox: two dispatchers, each with its own connection
 * pool (what two processes are to PostgreSQL), drain one webhook's deliveries together, and every
 * delivery reaches the receiver exactly once. Needs a PostgreSQL server (MAILSTEAD_TEST_POSTGRES_URL,
 * e.g. postgres://postgres@127.0.0.1:5432/test); each run uses a scratch database of its own.
 */
const adminUrl = process.env.MAILSTEAD_TEST_POSTGRES_URL;
const EVENTS = 600;

describe.skipIf(!adminUrl)('two dispatchers on one PostgreSQL database', () => {
  const databaseName = `mailstead_wh_${process.pid}_${Date.now()}`;
  const pools: pg.Pool[] = [];
  const received: string[] = [];
  let receiver: http.Server;
  let base: string;

  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(query);
    await client.end();
  };

  beforeAll(async () => {
    await admin(`create database "${databaseName}"`);
    receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push(String(req.headers['webhook-id']));
        // A little work per request, so that both dispatchers have deliveries in flight at once.
        setTimeout(() => res.writeHead(200).end('ok'), Math.random() * 8);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  }, 30_000);

  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
    await admin(`drop database if exists "${databaseName}" with (force)`);
  });

  /** One "process": its own pool and services; the secret box is the deployment's, shared. */
  function processServices(url: string, secrets: SecretBox): Services {
    const pool = new pg.Pool({ connectionString: url, max: 6 });
    // Dropping the scratch database ends any connection still open; that is not a failure of the test.
    pool.on('error', () => {});
    pools.push(pool);
    return {
      db: drizzle({ client: pool, schema }) as unknown as Db,
      config: { ...TEST_CONFIG, webhooks: { ...TEST_CONFIG.webhooks, concurrency: 8, pollMs: 20 } },
      secrets,
      logger: pino({ level: 'silent' }),
      now: () => new Date(),
      dns: new TestDns(),
      renderer: createTemplateRenderer({ workers: 1 }),
      passwordAttempts: testAttemptLimiter(),
      resetRequests: testAttemptLimiter(),
    };
  }

  it(`${EVENTS} deliveries, claimed with SKIP LOCKED by both, each sent exactly once`, async () => {
    const url = new URL(adminUrl!);
    url.pathname = `/${databaseName}`;
    const secrets = new SecretBox(randomBytes(32));
    const first = processServices(url.toString(), secrets);
    const second = processServices(url.toString(), secrets);
    await migrate(first.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    await Promise.all([first.renderer.close(), second.renderer.close()]);

    const account = await createAccount(as(first, systemPrincipal('')), {
      name: 'Concurrency',
      owner_email: `owner-${newId()}@example.com`,
      owner_password: 'correct horse battery staple',
    });
    const accountId = account.account_id;
    const webhook = await createWebhook(as(first, systemPrincipal(accountId)), {
      name: 'Shared',
      url: `${base}/hook`,
      scope: 'global',
      on_delivered: true,
    });
    const rows = Array.from({ length: EVENTS }, (_, index) => {
      const message = {
        id: newId(),
        accountId,
        sender: 'news@acme.example',
        recipient: `r${index}@rcpt.example`,
        subject: 'Hi',
        messageIdHeader: `<${newId()}@acme.example>`,
      };
      return {
        accountId,
        type: 'message.delivered' as const,
        messageId: message.id,
        payload: messageEventPayload('message.delivered', message),
      };
    });
    for (let offset = 0; offset < rows.length; offset += 200)
      await first.db.insert(events).values(rows.slice(offset, offset + 200));
    expect(
      (await first.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id))).length,
    ).toBe(EVENTS);

    // Both workers registered with a live heartbeat, as the delivery worker does it, so that neither
    // takes the other for dead and frees its leases (pid 1 stands for "another live process").
    const now = new Date();
    await first.db.insert(workers).values(
      ['worker-a', 'worker-b'].map((id) => ({
        id,
        hostname: hostIdentity(),
        pid: 1,
        startedAt: now,
        heartbeatAt: now,
      })),
    );

    const holders = new Set<string>();
    const watching = setInterval(() => {
      void first.db
        .selectDistinct({ id: webhookDeliveries.lockedBy })
        .from(webhookDeliveries)
        .where(isNotNull(webhookDeliveries.lockedBy))
        .then((found) => found.forEach((row) => holders.add(row.id!)))
        .catch(() => {});
    }, 20);
    const dispatchers = await Promise.all([
      startWebhookDispatcher(first, { workerId: 'worker-a', isOnlyProcess: false }),
      startWebhookDispatcher(second, { workerId: 'worker-b', isOnlyProcess: false }),
    ]);
    try {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const [{ waiting }] = await first.db
          .select({ waiting: sql<number>`count(*)::int` })
          .from(webhookDeliveries)
          .where(sql`${webhookDeliveries.status} <> 'delivered'`);
        if (waiting === 0) break;
        if (Date.now() > deadline) throw new Error(`${waiting} deliveries still waiting`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      clearInterval(watching);
      await Promise.all(dispatchers.map((dispatcher) => dispatcher.stop()));
    }

    expect(received).toHaveLength(EVENTS);
    expect(new Set(received).size).toBe(EVENTS);
    const deliveries = await first.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhook.id));
    expect(new Set(received)).toEqual(new Set(deliveries.map((row) => row.id)));
    expect(deliveries.every((row) => row.attempts === 1 && row.status === 'delivered' && row.lockedBy === null)).toBe(
      true,
    );
    // Both took part.
    expect([...holders].sort()).toEqual(['worker-a', 'worker-b']);
    // The counters, written under the webhook row's lock by both, add up.
    const [counted] = await first.db.select().from(webhooks).where(eq(webhooks.id, webhook.id));
    expect(counted).toMatchObject({ successCount: EVENTS, errorCount: 0, errorsSinceLastSuccess: 0 });
  }, 90_000);
});
