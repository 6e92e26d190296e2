import { expect, test } from '@playwright/test';
import pg from 'pg';
import { fetch as undiciFetch } from 'undici';
import { createAccountWithKey, runCli } from '../support/cli';
import { ApiClient } from '../support/client';
import { DnsControl } from '../support/dns-server';
import { TestMx } from '../support/mx-server';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { routeDomainToLoopback, verifiedDomain, waitForStatus } from '../support/sending';
import { freePort, startServer, type ServerHandle } from '../support/server';

/** Opens, clicks, the bounce-rate pause and retention, on a server of their own. */
let server: ServerHandle;
let mx: TestMx;
let api: ApiClient;
let accountId: string;
let sender: string;
let httpPort: number;
let dropDatabase: (() => Promise<void>) | null = null;
let scratchUrl: string | null = null;
const stamp = Date.now().toString(36);
const rcptDomain = `eng-${stamp}.example`;
let n = 0;
const rcpt = (label: string) => `${label}-${n++}@${rcptDomain}`;

test.beforeAll(async () => {
  mx = await new TestMx().start();
  httpPort = await freePort();
  const env: Record<string, string> = {
    ALLOW_PRIVATE_NETWORKS: 'true',
    SMTP_DELIVERY_PORT: String(mx.port),
    HTTP_PORT: String(httpPort),
    DELIVERY_POLL_MS: '100',
    PAUSE_MIN_VOLUME: '6',
    PAUSE_BOUNCE_RATE: '0.3',
    RETENTION_PURGE_INTERVAL_SECONDS: '1',
    JOB_POLL_MS: '200',
  };
  const adminUrl = postgresAdminUrl();
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'mailstead_engage');
    dropDatabase = scratch.drop;
    scratchUrl = scratch.url;
    Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: 'engagement-secret-engagement-secret-00001' });
  }
  server = await startServer({ env });
  const account = await createAccountWithKey(server.env, 'Engagement');
  accountId = account.accountId;
  api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
  sender = `eng-${stamp}.example.com`;
  await verifiedDomain(api, sender);
  // The tracking CNAME points our way, as the domain page asks; the name resolves to loopback.
  await new DnsControl().setA(`t.${sender}`, '127.0.0.1');
  await api.post(api.account(`/domains/${sender}/check-dns`));
  await routeDomainToLoopback(rcptDomain);
});

test.afterAll(async () => {
  await server?.stop();
  await mx?.stop();
  await dropDatabase?.();
});

/** Requests a tracking URL as a mail client would: the tracking host, resolved to 127.0.0.1. */
function visit(url: string, userAgent = 'Mozilla/5.0 (Macintosh) Thunderbird/128.0') {
  const parsed = new URL(url);
  const direct = `${parsed.protocol}//127.0.0.1:${parsed.port || (parsed.protocol === 'http:' ? 80 : 443)}${parsed.pathname}`;
  return undiciFetch(direct, { headers: { host: parsed.host, 'user-agent': userAgent }, redirect: 'manual' });
}

test('opens and clicks: the pixel and signed links are recorded once per message in the counters; a tampered link is 404', async () => {
  const to = rcpt('reader');
  const sent = await api.post(api.account('/messages'), {
    from: { email: `news@${sender}` },
    recipients: [{ email: to }],
    subject: 'Tracked',
    html_content:
      '<html><body><p><a href="https://shop.example/sale?a=1&amp;b=2">Sale</a> <a data-as-no-track href="https://shop.example/private">private</a> <a href="mailto:x@example.org">mail</a></p></body></html>',
    tracking: { open: true, click: true },
  });
  const id = sent.body.data[0].id;
  await waitForStatus(api, id, 'Delivered');
  const html = String(mx.for(to)[0].parsed.html);
  const trackingBase = `http://t.${sender}:${httpPort}`;
  const clickUrl = html.match(new RegExp(`href="(${trackingBase.replace(/[.]/g, '\\.')}/t/c/[^"]+)"`))?.[1];
  const openUrl = html.match(/<img src="([^"]+\/t\/o\/[^"]+)"/)?.[1];
  expect(clickUrl).toBeTruthy();
  expect(openUrl?.startsWith(trackingBase)).toBe(true);
  expect(html).toContain('href="https://shop.example/private"');
  expect(html).toContain('href="mailto:x@example.org"');
  expect(html).not.toContain('shop.example/sale');

  const pixel = await visit(openUrl!);
  expect(pixel.status).toBe(200);
  expect(pixel.headers.get('content-type')).toBe('image/gif');
  await visit(openUrl!);
  const click = await visit(clickUrl!);
  expect(click.status).toBe(302);
  expect(click.headers.get('location')).toBe('https://shop.example/sale?a=1&b=2');
  const bot = await visit(clickUrl!, 'Mozilla/5.0 (compatible; Googlebot/2.1)');
  expect(bot.status).toBe(302);

  const tampered = clickUrl!.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
  expect((await visit(tampered)).status).toBe(404);
  expect(
    (await visit(clickUrl!.replace(/\/t\/c\/[0-9a-f-]{36}/, '/t/c/01a20000-0000-7000-8000-000000000000'))).status,
  ).toBe(404);

  const message = (await api.get(api.account(`/messages/${encodeURIComponent(id)}`))).body;
  expect(message.open_count).toBe(2);
  expect(message.click_count).toBe(2);
  const events = JSON.parse((await runCli(['events', 'list', accountId, '--json'], server.env)).stdout).filter(
    (event: any) => event.message_id === message.id,
  );
  const clicks = events.filter((event: any) => event.type === 'message.clicked');
  expect(clicks).toHaveLength(2);
  expect(clicks.map((event: any) => event.payload.is_bot).sort()).toEqual([false, true]);
  expect(clicks[0].payload).toMatchObject({
    url: 'https://shop.example/sale?a=1&b=2',
    ip: '127.0.0.1',
    user_agent: expect.any(String),
  });
  expect(events.filter((event: any) => event.type === 'message.opened')).toHaveLength(2);
});

test('plain HTTP serves /t/ only, and only on HTTP_PORT', async () => {
  const other = await undiciFetch(`http://127.0.0.1:${httpPort}/v2/ping`);
  expect(other.status).toBe(400);
  const onMainPort = await undiciFetch(`http://127.0.0.1:${server.port}/t/o/whatever`);
  expect(onMainPort.status).toBe(400);
  const unknown = await undiciFetch(`http://127.0.0.1:${httpPort}/t/o/not-a-token`);
  expect(unknown.status).toBe(404);
});

test('without tracking asked for, no link is rewritten and no pixel added', async () => {
  const to = rcpt('plain');
  const sent = await api.post(api.account('/messages'), {
    from: { email: `news@${sender}` },
    recipients: [{ email: to }],
    subject: 'Plain',
    html_content: '<a href="https://shop.example/x">x</a>',
  });
  await waitForStatus(api, sent.body.data[0].id, 'Delivered');
  const html = String(mx.for(to)[0].parsed.html);
  expect(html).toContain('href="https://shop.example/x"');
  expect(html).not.toContain('/t/o/');
});

test('a bounce rate over the limit pauses the domain: sends are refused, other domains keep sending; unpause resumes', async () => {
  const other = `eng2-${stamp}.example.com`;
  await verifiedDomain(api, other);
  for (let i = 0; i < 4; i++) mx.script(`bad${i}@${rcptDomain}`, { code: 550, message: '5.1.1 no such user' });
  const recipients = [
    ...Array.from({ length: 4 }, (_, i) => ({ email: `bad${i}@${rcptDomain}` })),
    { email: rcpt('ok') },
    { email: rcpt('ok') },
  ];
  const sent = await api.post(api.account('/messages'), {
    from: { email: `news@${sender}` },
    recipients,
    subject: 'Bouncy',
    text_content: 'x',
  });
  for (const item of sent.body.data.slice(0, 4)) await waitForStatus(api, item.id, 'Bounced');
  await expect
    .poll(async () => (await api.get(api.account(`/domains/${sender}`))).body.paused, { timeout: 20_000 })
    .toBe(true);
  const domain = (await api.get(api.account(`/domains/${sender}`))).body;
  expect(domain).toMatchObject({ paused: true, pause_reason: 'bounce_rate', status: 'paused' });
  expect(domain.paused_at).not.toBeNull();

  const refused = await api.post(api.account('/messages'), {
    from: { email: `news@${sender}` },
    recipients: [{ email: rcpt('later') }],
    subject: 'x',
    text_content: 'x',
  });
  expect(refused.status).toBe(400);
  expect(refused.body.message).toMatch(/paused/);
  expect((await api.delete(api.account(`/domains/${sender}`))).status).toBe(409);
  const elsewhere = await api.post(api.account('/messages'), {
    from: { email: `news@${other}` },
    recipients: [{ email: rcpt('fine') }],
    subject: 'x',
    text_content: 'x',
  });
  expect(elsewhere.status).toBe(202);
  await waitForStatus(api, elsewhere.body.data[0].id, 'Delivered');

  const unpaused = await api.post(api.account(`/domains/${sender}/unpause`));
  expect(unpaused.status).toBe(200);
  expect(unpaused.body).toMatchObject({ paused: false, paused_at: null, pause_reason: null });
  // The window starts again: one more bounce does not pause it at once.
  mx.script(`bad9@${rcptDomain}`, { code: 550, message: '5.1.1 no such user' });
  const after = await api.post(api.account('/messages'), {
    from: { email: `news@${sender}` },
    recipients: [{ email: `bad9@${rcptDomain}` }, { email: rcpt('ok') }],
    subject: 'x',
    text_content: 'x',
  });
  expect(after.status).toBe(202);
  await waitForStatus(api, after.body.data[0].id, 'Bounced');
  expect((await api.get(api.account(`/domains/${sender}`))).body.paused).toBe(false);
});

test('retention: with a data retention of 0 no content is kept, and metadata goes when its retention ends', async () => {
  const sent = await api.post(api.account('/messages'), {
    from: { email: `news@${sender}` },
    recipients: [{ email: rcpt('forget') }],
    subject: 'Short-lived',
    text_content: 'x',
    retention: { data: 0, metadata: 1 },
  });
  const id = sent.body.data[0].id;
  const delivered = await waitForStatus(api, id, 'Delivered');
  expect(delivered.content).toBeUndefined();
  if (scratchUrl) {
    // On PostgreSQL the rows can be looked at: the purge job removed the content itself.
    const client = new pg.Client({ connectionString: scratchUrl });
    await client.connect();
    await expect
      .poll(
        async () =>
          (
            await client.query(
              'select count(*)::int as n from message_contents c join messages m on m.content_id = c.id where m.id = $1',
              [delivered.id],
            )
          ).rows[0].n,
        { timeout: 15_000 },
      )
      .toBe(0);
    await client.end();
  }
  expect(Date.parse(delivered.retain_until) - Date.parse(delivered.created_at)).toBe(86_400_000);
  const kept = await api.post(api.account('/messages'), {
    from: { email: `news@${sender}` },
    recipients: [{ email: rcpt('remember') }],
    subject: 'Kept',
    text_content: 'x',
    retention: { data: 3 },
  });
  const keptMessage = await waitForStatus(api, kept.body.data[0].id, 'Delivered');
  expect(keptMessage.content).toMatch(/Subject: Kept/);
});
