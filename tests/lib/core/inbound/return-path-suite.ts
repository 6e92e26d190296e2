import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createDomain } from '@/lib/core/domains/create-domain';
import { receiveReturnPathMail, type ReturnPathMail } from '@/lib/core/inbound/internal/receive-return-path-mail';
import { sendMessage } from '@/lib/core/messages/send-message';
import { createTemplateRenderer } from '@/lib/core/templates/engine/template-renderer';
import { MIGRATIONS_FOLDER, type Db } from '@/lib/db/client';
import * as schema from '@/lib/db/schema';
import { events, messages, statsHourly, suppressions, webhookDeliveries, webhooks } from '@/lib/db/schema';
import { SecretBox } from '@/lib/shared/crypto';
import {
  as,
  memoryServices,
  newAccount,
  TEST_CONFIG,
  TestClock,
  TestDns,
  testAttemptLimiter,
  type TestServices,
} from '../../../support/memory-services';
import { fixture } from './report-fixtures';

/**
 * What the return-path suites share: the databases they run on (PGlite, and PostgreSQL too when
 * MAILSTEAD_TEST_POSTGRES_URL is set, a scratch database of its own), and `returnPathSuite`, which opens
 * one with two accounts (Acme and Beta, each with a verified marketing domain; Acme with a global webhook
 * on bounces, complaints and suppressions) and gives the helpers that make delivered messages, hand mail
 * to the verb the MX calls and read what it changed.
 */
const adminUrl = process.env.MAILSTEAD_TEST_POSTGRES_URL;

async function postgresServices(): Promise<TestServices> {
  const name = `mailstead_rp_${process.pid}_${Date.now()}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(query);
    await client.end();
  };
  await admin(`create database "${name}"`);
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  pool.on('error', () => {});
  const db = drizzle({ client: pool, schema }) as unknown as Db;
  await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  const clock = new TestClock();
  const renderer = createTemplateRenderer({ workers: 1 });
  return {
    db,
    config: { ...TEST_CONFIG, ...NO_PAUSE },
    secrets: new SecretBox(randomBytes(32)),
    logger: pino({ level: 'silent' }),
    now: clock.now,
    clock,
    dns: new TestDns(),
    renderer,
    passwordAttempts: testAttemptLimiter(),
    resetRequests: testAttemptLimiter(),
    close: async () => {
      await renderer.close();
      await pool.end();
      await admin(`drop database if exists "${name}" with (force)`);
    },
  };
}

// No domain pauses on its bounce rate until a test asks for it (the messages here have no delivered events).
const NO_PAUSE = { pause: { ...TEST_CONFIG.pause, minVolume: 1_000_000 } };
export const DATABASES = [
  { name: 'PGlite', open: () => memoryServices(NO_PAUSE) },
  ...(adminUrl ? [{ name: 'PostgreSQL', open: postgresServices }] : []),
];

export const RP_A = 'rp.acme.example';
export const RP_B = 'rp.beta.example';

/** Registers the suite's beforeAll and afterAll in the calling describe; `services` is set once they ran. */
export function returnPathSuite(open: () => Promise<TestServices>) {
  let services: TestServices;
  const a = { accountId: '', principal: null as unknown as Principal, domainId: '', webhookId: '' };
  const b = { accountId: '', principal: null as unknown as Principal, domainId: '' };
  let sequence = 0;

  beforeAll(async () => {
    services = await open();
    for (const [holder, name, domain] of [
      [a, 'Acme', 'acme.example'],
      [b, 'Beta', 'beta.example'],
    ] as const) {
      Object.assign(holder, await newAccount(services, name));
      const created = await createDomain(as(services, holder.principal), { domain, sending_type: 'marketing' });
      services.dns.publishRecords(created.dns_records);
      await checkDomainDns(as(services, holder.principal), { domain });
      holder.domainId = created.id;
    }
    const [hook] = await services.db
      .insert(webhooks)
      .values({
        accountId: a.accountId,
        name: 'All',
        url: 'https://hooks.example/x',
        secretEncrypted: 'x',
        scope: 'global',
        onBounced: true,
        onComplained: true,
        onSuppressionCreated: true,
      })
      .returning();
    a.webhookId = hook.id;
  }, 120_000);

  afterAll(() => services?.close());

  /** A message of the account as the engine leaves it once the remote MX accepted it. */
  async function delivered(
    holder: { principal: Principal },
    domain: string,
    fields: Partial<typeof messages.$inferInsert> = {},
  ) {
    const recipient = `r${++sequence}@example.net`;
    const sent = await sendMessage(as(services, holder.principal), {
      from: { email: `news@${domain}` },
      subject: 'Hello',
      text_content: 'Hi',
      recipients: [{ email: recipient }],
      tags: ['weekly'],
    });
    const at = services.now();
    const [row] = await services.db
      .update(messages)
      .set({ status: 'delivered', attempts: 1, nextAttemptAt: null, sentAt: at, deliveredAt: at, ...fields })
      .where(eq(messages.messageIdHeader, sent.data[0].id!))
      .returning();
    return row;
  }

  const receive = (recipient: string, raw: Buffer, sender = '') =>
    receiveReturnPathMail(services, { recipient, sender, raw } satisfies ReturnPathMail);
  const reload = async (id: string) => (await services.db.select().from(messages).where(eq(messages.id, id)))[0];
  const eventsOf = async (id: string) =>
    (await services.db.select().from(events).where(eq(events.messageId, id))).map((event) => event.type);
  const suppressionOf = async (accountId: string, email: string) =>
    (
      await services.db
        .select()
        .from(suppressions)
        .where(and(eq(suppressions.accountId, accountId), eq(suppressions.email, email)))
    )[0];
  const hourly = async (accountId: string) => {
    const [row] = await services.db
      .select({
        bounced: sql<number>`sum(${statsHourly.bounced})::int`,
        complained: sql<number>`sum(${statsHourly.complained})::int`,
        invalid: sql<number>`sum(${statsHourly.bouncedInvalidRecipient})::int`,
      })
      .from(statsHourly)
      .where(eq(statsHourly.accountId, accountId));
    return { bounced: row.bounced ?? 0, complained: row.complained ?? 0, invalid: row.invalid ?? 0 };
  };
  const deliveriesOf = async (type: string) =>
    (
      await services.db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.webhookId, a.webhookId), eq(webhookDeliveries.eventType, type)))
    ).length;
  const postfixBounce = (message: typeof messages.$inferSelect, host = RP_A) =>
    fixture('postfix-hard-bounce.eml', {
      TOKEN: message.returnPathToken,
      RP_HOST: host,
      RECIPIENT: message.recipient,
      MESSAGE_ID: message.messageIdHeader,
    });

  return {
    get services() {
      return services;
    },
    a,
    b,
    delivered,
    receive,
    reload,
    eventsOf,
    suppressionOf,
    hourly,
    deliveriesOf,
    postfixBounce,
  };
}
