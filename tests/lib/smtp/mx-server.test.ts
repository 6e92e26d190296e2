import { generate } from 'selfsigned';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDomain } from '@/lib/core/domains/create-domain';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createRoute } from '@/lib/core/routes/create-route';
import type { Db } from '@/lib/db/client';
import { startMxServer } from '@/lib/smtp/mx-server';
import {
  dataBlock,
  deeplyNestedMail,
  hugeHeaderMail,
  loopingMail,
  manyPartsMail,
} from '../../../e2e/support/hostile-mail';
import { openSmtpSession, type SmtpSession } from '../../../e2e/support/smtp-session';
import { as, memoryServices, newAccount, type TestServices } from '../../support/memory-services';

/**
 * The MX on an in-memory database, spoken to over real sockets: the per-client connection cap, the
 * greeting timeout, permanent refusals of mail over the parser limits, and 451 while the database
 * cannot be reached.
 */
const ROUTED = 'support@acme.example';

/** What `pg` throws while PostgreSQL is down; drizzle wraps it, so it is the cause of what reaches the MX. */
const refused = () =>
  Object.assign(new Error('Failed query'), {
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
  });

/** A query builder that fails as a database that cannot be reached does, whatever is built on it. */
function unreachableDb(): Db {
  const chain: unknown = new Proxy(() => {}, {
    get: (_target, property) =>
      property === 'then' ? (_resolve: unknown, reject: (error: unknown) => void) => reject(refused()) : chain,
    apply: () => chain,
  });
  return chain as Db;
}

let services: TestServices;
let realDb: Db;
let outage: 'none' | 'all' | 'writes' = 'none';
let mx: { port: number; close: () => Promise<void> };
let quickMx: { port: number; close: () => Promise<void> };
const sessions: SmtpSession[] = [];

function session(port = mx.port, localAddress?: string): SmtpSession {
  const opened = openSmtpSession(port, { localAddress });
  sessions.push(opened);
  return opened;
}

/** EHLO, MAIL, RCPT to the routed address, DATA with `raw`: the reply to the end of data. */
async function deliver(raw: string, port = mx.port): Promise<string> {
  const client = session(port);
  expect(await client.greeting).toMatch(/^220 /);
  await client.send('EHLO sender.example.org');
  expect(await client.send('MAIL FROM:<mallory@example.org>')).toMatch(/^250 /);
  expect(await client.send(`RCPT TO:<${ROUTED}>`)).toMatch(/^250 /);
  expect(await client.send('DATA')).toMatch(/^354 /);
  const reply = await client.send(dataBlock(raw));
  client.close();
  return reply;
}

beforeAll(async () => {
  services = await memoryServices();
  realDb = services.db;
  // The MX reads services.db at each command: an outage is switched on between commands.
  services.db = new Proxy(realDb, {
    get: (target, property, receiver) => {
      if (
        outage === 'all' ||
        (outage === 'writes' && ['insert', 'update', 'delete', 'transaction'].includes(String(property)))
      )
        return Reflect.get(unreachableDb(), property);
      return Reflect.get(target, property, receiver);
    },
  });
  const { principal } = await newAccount(services);
  const domain = await createDomain(as(services, principal), { domain: 'acme.example', sending_type: 'transactional' });
  services.dns.publishRecords(domain.dns_records);
  await checkDomainDns(as(services, principal), { domain: 'acme.example' });
  await createRoute(as(services, principal), { name: 'Support', url: 'https://127.0.0.1:9/in', recipient: ROUTED });
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048 } as never);
  const tls = { cert: pems.cert, key: pems.private };
  mx = await startMxServer({
    services,
    port: 0,
    hostname: 'mx.mailstead.test',
    tls,
    limits: { connectionsPerClient: 3, greetingTimeoutMs: 60_000 },
  });
  quickMx = await startMxServer({
    services,
    port: 0,
    hostname: 'mx.mailstead.test',
    tls,
    limits: { connectionsPerClient: 3, greetingTimeoutMs: 1000 },
  });
}, 60_000);

// Each test's connections are gone before the next, so that no test inherits another's count.
afterEach(async () => {
  for (const opened of sessions.splice(0)) opened.close();
  await new Promise((resolve) => setTimeout(resolve, 50));
});

afterAll(async () => {
  await mx?.close();
  await quickMx?.close();
  await services?.close();
});

describe('MX connection limits', () => {
  it('a client address over its cap gets 421 4.7.0 at once; other addresses still get 220; a closed connection frees its slot', async () => {
    const held = [session(mx.port, '127.0.0.2'), session(mx.port, '127.0.0.2'), session(mx.port, '127.0.0.2')];
    for (const client of held) expect(await client.greeting).toMatch(/^220 mx\.mailstead\.test /);
    const over = session(mx.port, '127.0.0.2');
    expect(await over.greeting).toMatch(/^421 4\.7\.0 mx\.mailstead\.test too many connections from your address/);
    await over.closed;
    const other = session(mx.port, '127.0.0.6');
    expect(await other.greeting).toMatch(/^220 /);
    expect(await other.send('EHLO sender.example.org')).toMatch(/^250[ -]/);
    held[0].close();
    await held[0].closed;
    await expect
      .poll(async () => (await session(mx.port, '127.0.0.2').greeting).slice(0, 3), { timeout: 5000 })
      .toBe('220');
  });

  it('a client silent after the greeting is told 421 4.4.2 and closed; one that sent a command is not', async () => {
    const silent = session(quickMx.port, '127.0.0.3');
    const talking = session(quickMx.port, '127.0.0.3');
    expect(await silent.greeting).toMatch(/^220 /);
    expect(await talking.greeting).toMatch(/^220 /);
    expect(await talking.send('EHLO sender.example.org')).toMatch(/^250[ -]/);
    await silent.closed;
    expect(silent.replies[1]).toMatch(/^421 4\.4\.2 .*no command received in time/);
    // Well past the greeting timeout: the idle timeout (a minute) is what applies after a command.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(talking.isClosed()).toBe(false);
    expect(await talking.send('NOOP')).toMatch(/^250 /);
  });
});

describe('MX parser limits: permanent refusals, then normal mail again', () => {
  it.each([
    [
      'a 2 MB header',
      () => hugeHeaderMail(ROUTED, 2 * 1024 * 1024),
      /^552 5\.3\.4 the header section of the message exceeds 1048576 bytes/,
    ],
    [
      'a MIME part with a 2 MB header',
      () =>
        manyPartsMail(ROUTED, 1).replace(
          'Content-Type: text/plain\r\n',
          `Content-Type: text/plain\r\nX-Padding: x${'\r\n padding-padding-padding'.repeat(90_000)}\r\n`,
        ),
      /^552 5\.3\.4 the header section of a MIME part/,
    ],
    [
      '50,000 parts',
      () => manyPartsMail(ROUTED, 50_000),
      /^554 5\.6\.0 message too complex: more than 1000 MIME parts/,
    ],
    ['multiparts nested 2,000 deep', () => deeplyNestedMail(ROUTED, 2000), /^554 5\.6\.0 message too complex/],
    [
      '51 Received headers (a loop)',
      () => loopingMail(ROUTED, 51),
      /^554 5\.4\.6 too many hops: 51 Received headers, at most 50/,
    ],
  ])('%s', async (_name, build, reply) => {
    expect(await deliver(build())).toMatch(reply);
    expect(await deliver(loopingMail(ROUTED, 2))).toMatch(/^250 /);
  });

  it('50 Received headers, or multiparts nested 100 deep, are still mail', async () => {
    expect(await deliver(loopingMail(ROUTED, 50))).toMatch(/^250 /);
    expect(await deliver(deeplyNestedMail(ROUTED, 100))).toMatch(/^250 /);
  });
});

describe('MX while the database cannot be reached', () => {
  it('RCPT is 451 4.3.0 (not 5xx, not a dropped connection) and the session goes on', async () => {
    const client = session(mx.port, '127.0.0.4');
    expect(await client.greeting).toMatch(/^220 /);
    await client.send('EHLO sender.example.org');
    expect(await client.send('MAIL FROM:<someone@example.org>')).toMatch(/^250 /);
    outage = 'all';
    try {
      expect(await client.send(`RCPT TO:<${ROUTED}>`)).toMatch(/^451 4\.3\.0 /);
      expect(await client.send('RCPT TO:<bounces+abc@rp.acme.example>')).toMatch(/^451 4\.3\.0 /);
    } finally {
      outage = 'none';
    }
    expect(await client.send(`RCPT TO:<${ROUTED}>`)).toMatch(/^250 /);
    expect(await client.send('QUIT')).toMatch(/^221 /);
  });

  it('DATA is 451 4.3.0 when the message cannot be written, and the same message is taken once the database is back', async () => {
    const client = session(mx.port, '127.0.0.5');
    expect(await client.greeting).toMatch(/^220 /);
    await client.send('EHLO sender.example.org');
    await client.send('MAIL FROM:<someone@example.org>');
    expect(await client.send(`RCPT TO:<${ROUTED}>`)).toMatch(/^250 /);
    expect(await client.send('DATA')).toMatch(/^354 /);
    const raw = loopingMail(ROUTED, 1);
    outage = 'writes';
    try {
      expect(await client.send(dataBlock(raw))).toMatch(/^451 4\.3\.0 /);
    } finally {
      outage = 'none';
    }
    expect(client.isClosed()).toBe(false);
    expect(await client.send('QUIT')).toMatch(/^221 /);
    expect(await deliver(raw)).toMatch(/^250 /);
  });
});
