import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import pg from 'pg';
import pino from 'pino';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInLimiter } from '@/lib/api/rate-limiter';
import { createSmtpCredential } from '@/lib/core/smtp-credentials/create-smtp-credential';
import type { Db } from '@/lib/db/client';
import * as schema from '@/lib/db/schema';
import { startSubmissionServer } from '@/lib/smtp/submission-server';
import { as, memoryServices, newAccount, type TestServices } from '../../support/memory-services';

/**
 * The submission server while its database cannot be reached: a real SMTP conversation over
 * STARTTLS, with the database swapped for a PostgreSQL pool whose server refuses connections
 * (the error pg gives while PostgreSQL restarts). Every answer is temporary: the client keeps the mail.
 */
let services: TestServices;
let liveDb: Db;
let deadPool: pg.Pool;
let server: { port: number; close: () => Promise<void> };
let credential: { username: string; password: string };

beforeAll(async () => {
  services = await memoryServices();
  liveDb = services.db;
  const { principal } = await newAccount(services);
  credential = await createSmtpCredential(as(services, principal), { name: 'Outage', scope: 'global' });
  // Port 1 on loopback: nothing listens, every connection is refused at once.
  deadPool = new pg.Pool({
    connectionString: 'postgres://mailstead@127.0.0.1:1/mailstead',
    connectionTimeoutMillis: 2000,
  });
  deadPool.on('error', () => {});
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048 } as never);
  server = await startSubmissionServer({
    services,
    port: 0,
    hostname: 'localhost',
    tls: { cert: pems.cert, key: pems.private },
    consumeRateLimit: async () => ({ isAllowed: true }),
    authLimiter: createSignInLimiter({
      redis: null,
      namespace: randomBytes(4).toString('hex'),
      logger: pino({ level: 'silent' }),
      attempts: 3,
      windowSeconds: 900,
      kind: 'smtp-auth',
    }),
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await deadPool?.end();
  await services?.close();
});

const databaseDown = () => (services.db = drizzle({ client: deadPool, schema }) as unknown as Db);
const databaseBack = () => (services.db = liveDb);

type Reply = { responseCode?: number; response?: string };

async function connect(): Promise<SMTPConnection> {
  const connection = new SMTPConnection({
    host: '127.0.0.1',
    port: server.port,
    secure: false,
    requireTLS: true,
    tls: { rejectUnauthorized: false },
  });
  connection.on('error', () => {});
  await new Promise<void>((resolve, reject) =>
    connection.connect((error?: Error) => (error ? reject(error) : resolve())),
  );
  return connection;
}

const login = (connection: SMTPConnection, auth: { user: string; pass: string }) =>
  new Promise<Reply | null>((resolve) => connection.login(auth, (error) => resolve(error ? (error as Reply) : null)));

describe('submission server during a database outage', () => {
  it('answers AUTH with 451 4.3.0, and the failed checks do not count against the credential', async () => {
    databaseDown();
    try {
      // More attempts than the limiter allows: a check that could not run is no failed password.
      for (let attempt = 0; attempt < 5; attempt++) {
        const connection = await connect();
        const reply = await login(connection, { user: credential.username, pass: credential.password });
        connection.close();
        expect(reply?.responseCode).toBe(451);
        expect(reply?.response).toMatch(/^451 4\.3\.0 the database cannot be reached/);
      }
    } finally {
      databaseBack();
    }
    const connection = await connect();
    expect(await login(connection, { user: credential.username, pass: credential.password })).toBeNull();
    connection.close();
  });

  it('answers DATA with 451 4.3.0 when the database goes away after AUTH', async () => {
    const connection = await connect();
    expect(await login(connection, { user: credential.username, pass: credential.password })).toBeNull();
    databaseDown();
    try {
      const reply = await new Promise<Reply | null>((resolve) =>
        connection.send(
          { from: 'shop@acme.example', to: ['ann@rcpt.example'] },
          'From: shop@acme.example\r\nTo: ann@rcpt.example\r\nSubject: x\r\n\r\nx\r\n',
          (error) => resolve(error ? (error as Reply) : null),
        ),
      );
      expect(reply?.responseCode).toBe(451);
      expect(reply?.response).toMatch(/^451 4\.3\.0 the database cannot be reached/);
    } finally {
      databaseBack();
      connection.close();
    }
  });
});
