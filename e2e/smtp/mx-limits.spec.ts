import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import nodemailer from 'nodemailer';
import { dataBlock, deeplyNestedMail, hugeHeaderMail, loopingMail, manyPartsMail } from '../support/hostile-mail';
import { startRouteServer, type RouteServer } from '../support/route-server';
import { verifiedDomain } from '../support/sending';
import { openSmtpSession, type SmtpSession } from '../support/smtp-session';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * What hostile clients cannot do to the MX (issue 29), on servers of their own: one address holding
 * every connection, silent connections held open, messages built to break the parser or to loop.
 * Each time, ordinary mail from elsewhere still arrives at the route's receiver.
 */
const stamp = Date.now().toString(36);

/** The server's peak resident memory so far (Linux; null elsewhere), to show that hostile mail did not blow it up. */
function peakMemoryBytes(pid: number | undefined): number | null {
  const file = `/proc/${pid}/status`;
  if (!pid || !existsSync(file)) return null;
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(file, 'utf8'));
  return match ? Number(match[1]) * 1024 : null;
}

test.describe('the MX against one greedy client and against hostile messages', () => {
  let suite: RouteServer;
  let receiver: WebhookReceiver;
  const domain = `mx-limits-${stamp}.example.com`;
  const sessions: SmtpSession[] = [];
  const open = (localAddress: string) => {
    const session = openSmtpSession(suite.mxPort, { localAddress });
    sessions.push(session);
    return session;
  };
  const transport = (localAddress: string) =>
    nodemailer.createTransport({
      host: '127.0.0.1',
      port: suite.mxPort,
      secure: false,
      tls: { rejectUnauthorized: false },
      localAddress,
    });
  const routed = (name: string) => `${name}@${domain}`;
  let peakBefore: number | null = null;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    receiver = await new WebhookReceiver().start();
    suite = await startRouteServer('MX limits');
    await verifiedDomain(suite.api, domain);
    const created = await suite.api.post(suite.api.account('/routes'), {
      name: 'Everything',
      url: receiver.url(`/limits-${stamp}`),
      recipient: `*@${domain}`,
    });
    expect(created.status).toBe(201);
    peakBefore = peakMemoryBytes(suite.server.process.pid);
  });
  test.afterAll(async () => {
    for (const session of sessions) session.close();
    await suite?.stop();
    await receiver?.stop();
  });

  /** Mail from `localAddress` through nodemailer; resolves once the route's receiver has it. */
  const deliverAndReceive = async (localAddress: string, subject: string) => {
    const info = await transport(localAddress).sendMail({
      from: 'alice@example.org',
      to: routed('support'),
      subject,
      text: 'ordinary mail',
    });
    expect(info.accepted).toEqual([routed('support')]);
    await expect
      .poll(() => receiver.to(`/limits-${stamp}`).some((hook) => hook.json.data.subject === subject), {
        timeout: 20_000,
      })
      .toBe(true);
  };

  test('60 silent connections from 127.0.0.1: 50 get 220, the 51st and later 421 4.7.0; 127.0.0.2 still gets 220 and delivers; once they close, 127.0.0.1 delivers again', async () => {
    const first = Array.from({ length: 50 }, () => open('127.0.0.1'));
    for (const greeting of await Promise.all(first.map((session) => session.greeting)))
      expect(greeting).toMatch(/^220 /);
    const over = Array.from({ length: 10 }, () => open('127.0.0.1'));
    for (const greeting of await Promise.all(over.map((session) => session.greeting)))
      expect(greeting).toMatch(/^421 4\.7\.0 .*too many connections from your address/);
    await Promise.all(over.map((session) => session.closed));

    const other = openSmtpSession(suite.mxPort, { localAddress: '127.0.0.2' });
    sessions.push(other);
    expect(await other.greeting).toMatch(/^220 /);
    other.close();
    await deliverAndReceive('127.0.0.2', `from a neighbour ${stamp}`);
    // The 50 held were never dropped for the others' sake.
    expect(first.filter((session) => session.isClosed())).toHaveLength(0);

    for (const session of first) session.close();
    await expect.poll(async () => (await open('127.0.0.1').greeting).slice(0, 3), { timeout: 10_000 }).toBe('220');
    await deliverAndReceive('127.0.0.1', `after the flood ${stamp}`);
  });

  const refusals: [string, () => string, RegExp][] = [
    ['a 2 MB header: 552 5.3.4', () => hugeHeaderMail(routed('big-header'), 2 * 1024 * 1024), /^552 5\.3\.4 /],
    ['50,000 MIME parts: 554 5.6.0', () => manyPartsMail(routed('many-parts'), 50_000), /^554 5\.6\.0 /],
    ['multiparts nested 5,000 deep: 554 5.6.0', () => deeplyNestedMail(routed('deep'), 5000), /^554 5\.6\.0 /],
    ['51 Received headers (a loop): 554 5.4.6', () => loopingMail(routed('loop'), 51), /^554 5\.4\.6 /],
  ];
  for (const [name, build, reply] of refusals) {
    test(`hostile message, ${name} (permanent: no retries for days), then ordinary mail is received`, async () => {
      const session = open('127.0.0.3');
      expect(await session.greeting).toMatch(/^220 /);
      await session.send('EHLO sender.example.org');
      expect(await session.send('MAIL FROM:<mallory@example.org>')).toMatch(/^250 /);
      expect(await session.send(`RCPT TO:<${routed('support')}>`)).toMatch(/^250 /);
      expect(await session.send('DATA')).toMatch(/^354 /);
      expect(await session.send(dataBlock(build()))).toMatch(reply);
      // The same session goes on, and takes ordinary mail.
      expect(await session.send('RSET')).toMatch(/^250 /);
      session.close();
      await deliverAndReceive('127.0.0.3', `after ${name} ${stamp}`);
      // The peak grew by little (PGlite's own memory makes any absolute bound meaningless).
      const peak = peakMemoryBytes(suite.server.process.pid);
      if (peak !== null && peakBefore !== null) {
        test.info().annotations.push({
          type: 'peak memory growth (MB)',
          description: String(Math.round((peak - peakBefore) / 2 ** 20)),
        });
        expect(peak - peakBefore).toBeLessThan(256 * 2 ** 20);
      }
    });
  }
});

test.describe('the MX closes connections that never send a command (MX_GREETING_TIMEOUT_SECONDS=1)', () => {
  let suite: RouteServer;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    suite = await startRouteServer('MX greeting', { MX_GREETING_TIMEOUT_SECONDS: '1' });
  });
  test.afterAll(async () => {
    await suite?.stop();
  });

  test('a silent connection gets 421 4.4.2 and is closed; one that sent EHLO stays open past the greeting timeout', async () => {
    const silent = openSmtpSession(suite.mxPort);
    const talking = openSmtpSession(suite.mxPort);
    try {
      expect(await silent.greeting).toMatch(/^220 /);
      expect(await talking.greeting).toMatch(/^220 /);
      expect(await talking.send('EHLO sender.example.org')).toMatch(/^250[ -]/);
      // Without the greeting timeout only the one-minute idle timeout would close it.
      await expect.poll(() => silent.isClosed(), { timeout: 15_000 }).toBe(true);
      expect(silent.replies[1]).toMatch(/^421 4\.4\.2 .*no command received in time/);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(talking.isClosed()).toBe(false);
      expect(await talking.send('NOOP')).toMatch(/^250 /);
    } finally {
      silent.close();
      talking.close();
    }
  });
});
