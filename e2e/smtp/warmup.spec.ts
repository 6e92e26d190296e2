import { expect, test } from '@playwright/test';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { CountingMx } from '../support/counting-mx';
import { DnsControl } from '../support/dns-server';
import { startServerWithMx, type ServerWithMx } from '../support/mx-suite';
import { isPostgresRun } from '../support/server';
import { BACKGROUND_POLL_INTERVALS, routeDomainToLoopback, verifiedDomain } from '../support/sending';

/**
 * Warm-up against a loopback MX: recipient domains whose MX names are Google's and Microsoft's are
 * limited as Gmail and Microsoft by a custom plan; the excess stays queued with the reason, other
 * providers go, and turning warm-up off lets the held mail go at full volume.
 */
test.describe.configure({ mode: 'serial' });

const stamp = Date.now().toString(36);
const sender = `warmup-${stamp}.example.com`;
const gmailDomain = `warmup-gmail-${stamp}.example`;
const microsoftDomain = `warmup-ms-${stamp}.example`;
const appleDomain = `warmup-apple-${stamp}.example`;
const otherDomain = `warmup-other-${stamp}.example`;
const PLAN = [{ gmail: 5, microsoft: 6 }];
let suite: ServerWithMx<CountingMx>;
let api: ApiClient;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const mx = await new CountingMx({ replyDelayMs: 20 }).start();
  // On PostgreSQL two processes deliver, each with its own gate: the limit must hold across them.
  suite = await startServerWithMx({
    name: 'Warmup',
    mx,
    env: {
      RETRY_SCHEDULE: '1',
      DNS_CHECK_CACHE_SECONDS: '0',
      WORKERS: isPostgresRun() ? '2' : '1',
      // The operator's IP warm-up: Apple alone limited, so the domain's own plan is tested apart.
      IP_WARMUP_STARTED_AT: new Date().toISOString().slice(0, 10),
      IP_WARMUP_PLAN: '[{"apple":2}]',
    },
  });
  const account = await createAccountWithKey(suite.server.env, 'Warmup');
  api = new ApiClient(suite.server.baseUrl, suite.server.dataDir, account.apiKey, account.accountId);
  await verifiedDomain(api, sender);
  const dns = new DnsControl();
  for (const [domain, host] of [
    [gmailDomain, `mx-${stamp}.gmail-smtp-in.l.google.com`],
    [microsoftDomain, `mx-${stamp}.mail.protection.outlook.com`],
    [appleDomain, `mx-${stamp}.mail.icloud.com`],
  ]) {
    await dns.setMx(domain, host);
    await dns.setA(host, '127.0.0.1');
  }
  await routeDomainToLoopback(otherDomain);
});

test.afterAll(async () => {
  await suite?.stop();
});

const arrived = (domain: string) => suite.mx.count((recipient) => recipient.endsWith(`@${domain}`)).distinct;

async function send(label: string, domain: string, count: number): Promise<string[]> {
  const sent = await api.post(api.account('/messages'), {
    from: { email: `news@${sender}` },
    recipients: Array.from({ length: count }, (_, index) => ({ email: `${label}-${index}@${domain}` })),
    subject: `Warm-up ${label}`,
    text_content: 'Hello',
  });
  expect(sent.status, sent.text).toBe(202);
  return sent.body.data.map((message: { id: string }) => message.id);
}

const warmup = async () => {
  const response = await api.get(api.account(`/domains/${sender}/warmup`));
  expect(response.status, response.text).toBe(200);
  return response.body;
};
type ProviderRow = { provider: string; limit: number | null; sent: number; held: number };
const provider = (body: { providers: ProviderRow[] }, name: string) =>
  body.providers.find((row) => row.provider === name);

test('a plan of 5 a day for Gmail lets exactly 5 of 12 through and holds 7 with the reason; other providers go', async () => {
  test.setTimeout(120_000);
  const off = await warmup();
  expect(off).toMatchObject({ enabled: false, day: null, plan: 'default', held: 0 });

  const updated = await api.put(api.account(`/domains/${sender}`), { warmup: { enabled: true, plan: PLAN } });
  expect(updated.status, updated.text).toBe(200);
  expect(updated.body.warmup).toMatchObject({ enabled: true, plan: PLAN });
  expect(Date.now() - Date.parse(updated.body.warmup.started_at)).toBeLessThan(60_000);
  const audit = await api.get(api.account('/audit-events?action=domain.update'));
  expect(audit.body.data[0]).toMatchObject({ action: 'domain.update', changes: ['warmup'] });

  const gmailIds = await send('gmail', gmailDomain, 12);
  await send('other', otherDomain, 4);
  await expect.poll(() => arrived(otherDomain), { timeout: 30_000, intervals: BACKGROUND_POLL_INTERVALS }).toBe(4);
  await expect
    .poll(async () => (await warmup()).held, { timeout: 30_000, intervals: BACKGROUND_POLL_INTERVALS })
    .toBe(7);
  // Retries come every second (RETRY_SCHEDULE=1): nothing more may reach Gmail's MX meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  expect(arrived(gmailDomain)).toBe(5);

  const today = await warmup();
  expect(today).toMatchObject({ enabled: true, plan: 'custom', day: 1, plan_days: 1, is_over: false, held: 7 });
  expect(provider(today, 'gmail')).toMatchObject({ label: 'Gmail', limit: 5, sent: 5, held: 7 });
  expect(provider(today, 'other')).toMatchObject({ limit: null, sent: 4, held: 0 });
  expect(Date.parse(today.resets_at) % 86_400_000).toBe(0);

  const details = await Promise.all(gmailIds.map(async (id) => (await api.get(api.account(`/messages/${id}`))).body));
  const held = details.filter((message) => message.status !== 'Delivered');
  expect(held).toHaveLength(7);
  for (const message of held) {
    expect(message.num_attempts).toBe(0);
    expect(message.status).toBe('Received');
    expect(message.delivery_attempts.at(-1)).toMatchObject({ status: 'held' });
    expect(message.delivery_attempts.at(-1).log).toMatch(/^warm-up: Gmail daily limit 5 reached \(day 1 of 1\)/);
  }
});

test('two sends in parallel (on PostgreSQL, delivered by two processes) do not exceed the limit: exactly 6 of 12 reach Microsoft', async () => {
  test.setTimeout(120_000);
  await Promise.all([send('ms-a', microsoftDomain, 6), send('ms-b', microsoftDomain, 6)]);
  await expect
    .poll(async () => provider(await warmup(), 'microsoft')?.held, {
      timeout: 30_000,
      intervals: BACKGROUND_POLL_INTERVALS,
    })
    .toBe(6);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  expect(arrived(microsoftDomain)).toBe(6);
  expect(provider(await warmup(), 'microsoft')).toMatchObject({ limit: 6, sent: 6, held: 6 });
});

test('bad warm-up settings are 400 naming the field; an unknown domain is 404; another account sees nothing', async () => {
  const cases: [unknown, string][] = [
    ['on', 'warmup'],
    [{ plan: 'default' }, 'warmup.enabled'],
    [{ enabled: 'yes' }, 'warmup.enabled'],
    [{ enabled: true, plan: 'fast' }, 'warmup.plan'],
    [{ enabled: true, plan: [] }, 'warmup.plan'],
    [{ enabled: true, plan: Array.from({ length: 61 }, () => ({ gmail: 1 })) }, 'warmup.plan'],
    [{ enabled: true, plan: [{ gmail: -5 }] }, 'warmup.plan.0.gmail'],
    [{ enabled: true, plan: [{ gmail: '5' }] }, 'warmup.plan.0.gmail'],
    [{ enabled: true, plan: [{ hotmail: 5 }] }, 'warmup.plan.0'],
    [{ enabled: true, started_at: 'x'.repeat(5000) }, 'warmup.started_at'],
  ];
  for (const [value, field] of cases) {
    const response = await api.put(api.account(`/domains/${sender}`), { warmup: value });
    expect(response.status, `${JSON.stringify(value).slice(0, 80)}: ${response.text}`).toBe(400);
    expect(response.body.message).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}:`));
  }
  expect((await api.get(api.account(`/domains/${sender}`))).body.warmup.plan).toEqual(PLAN);
  expect((await api.get(api.account(`/domains/nope-${stamp}.example/warmup`))).status).toBe(404);
  const put = await api.put(api.account(`/domains/nope-${stamp}.example`), { warmup: { enabled: true } });
  expect(put.status).toBe(404);
  const stranger = await createAccountWithKey(suite.server.env, 'Warmup stranger');
  const other = new ApiClient(suite.server.baseUrl, suite.server.dataDir, stranger.apiKey, stranger.accountId);
  expect((await other.get(other.account(`/domains/${sender}/warmup`))).status).toBe(404);
});

test("the server's IP warm-up (IP_WARMUP_*) limits Apple to 2 a day whatever the domain's plan, and the domain page's API shows it", async () => {
  test.setTimeout(120_000);
  const ids = await send('apple', appleDomain, 3);
  await expect
    .poll(async () => (await warmup()).server_ip?.held, { timeout: 30_000, intervals: BACKGROUND_POLL_INTERVALS })
    .toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  expect(arrived(appleDomain)).toBe(2);
  const today = await warmup();
  expect(today.server_ip).toMatchObject({ plan: 'custom', day: 1, plan_days: 1, is_over: false, held: 1 });
  expect(provider(today.server_ip, 'apple')).toMatchObject({ limit: 2, sent: 2, held: 1 });
  expect(provider(today.server_ip, 'gmail')).toMatchObject({ limit: null });
  // The domain's own plan does not limit Apple: its counter says nothing was held for it.
  expect(provider(today, 'apple')).toMatchObject({ limit: null, held: 0 });
  const held = [];
  for (const id of ids) {
    const message = (await api.get(api.account(`/messages/${id}`))).body;
    if (message.status !== 'Delivered') held.push(message);
  }
  expect(held).toHaveLength(1);
  expect(held[0].delivery_attempts.at(-1).log).toMatch(/^IP warm-up: Apple daily limit 2 reached \(day 1 of 1\)/);
});

test('turning warm-up off lets the held mail go at once, at full volume', async () => {
  test.setTimeout(120_000);
  const updated = await api.put(api.account(`/domains/${sender}`), { warmup: { enabled: false } });
  expect(updated.status, updated.text).toBe(200);
  await expect.poll(() => arrived(gmailDomain), { timeout: 30_000, intervals: BACKGROUND_POLL_INTERVALS }).toBe(12);
  await expect.poll(() => arrived(microsoftDomain), { timeout: 30_000, intervals: BACKGROUND_POLL_INTERVALS }).toBe(12);
  expect(suite.mx.count(() => true).duplicated).toEqual([]);
  expect(await warmup()).toMatchObject({ enabled: false, day: null });
});

test('OpenAPI - GET …/warmup is documented as a Mailstead extension, and the domain update takes warmup', async () => {
  const document = (await api.get('/v2/openapi.json', { checkContract: false })).body;
  const operation = document.paths['/v2/accounts/{account_id}/domains/{domain}/warmup']?.get;
  expect(operation?.['x-mailstead-extension']).toBe(true);
  expect(Object.keys(document.components.schemas)).toEqual(
    expect.arrayContaining(['DomainWarmup', 'WarmupProvider', 'WarmupSettings', 'WarmupDay']),
  );
  expect(document.components.schemas.UpdateDomainRequest.properties.warmup).toBeTruthy();
});
