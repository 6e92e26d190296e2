import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { fetch } from 'undici';
import type { ApiClient } from '../support/client';
import { startMxSuite, type MxSuite } from '../support/mx-suite';
import { postgresAdminUrl } from '../support/postgres';
import { waitForStatus } from '../support/sending';
import { freePort, trustingAgent, type ServerHandle } from '../support/server';
import { converse } from '../support/smtp-dialogue';

/**
 * The operator's view of a running server: /metrics on the operations listener (METRICS_PORT,
 * behind METRICS_TOKEN), /healthz and /readyz there and on the web port, and the ids that let one
 * delivery or one SMTP session be followed in the logs. A server of its own, delivering to a
 * loopback MX, logging at debug.
 */
let suite: MxSuite;
let server: ServerHandle;
let api: ApiClient;
let metricsPort: number;
let mxPort: number;
const stamp = Date.now().toString(36);
const sender = `metrics-${stamp}.example.com`;
const rcptDomain = `metrics-rcpt-${stamp}.example`;
const token = `metrics-token-${stamp}-0123456789`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  // A server of its own, started while other suites load the machine: PGlite's first start can take a while.
  test.setTimeout(180_000);
  metricsPort = await freePort();
  mxPort = await freePort();
  suite = await startMxSuite({
    name: 'Metrics',
    sender,
    recipientDomain: rcptDomain,
    env: {
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN: token,
      LOG_LEVEL: 'debug',
      ROLES: 'web,worker,smtp,mx',
      MX_PORT: String(mxPort),
    },
  });
  ({ server, api } = suite);
});

test.afterAll(async () => {
  await suite?.stop();
});

const operations = (path: string, init: { headers?: Record<string, string>; method?: string } = {}) =>
  fetch(`http://127.0.0.1:${metricsPort}${path}`, init);
const scrapeText = async () => {
  const response = await operations('/metrics', { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return response.text();
};

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The samples of a Prometheus text exposition. */
function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key, value]),
      );
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

/** The value of the one series with these labels (others ignored), or undefined when absent. */
async function valueOf(name: string, labels: Record<string, string> = {}, text?: string): Promise<number | undefined> {
  const samples = parseExposition(text ?? (await scrapeText()));
  return samples.find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;
}

test('GET /metrics - a bearer token is required: 401 without it or with a wrong one, 200 in Prometheus text format with it', async () => {
  const without = await operations('/metrics');
  expect(without.status).toBe(401);
  expect(without.headers.get('www-authenticate')).toBe('Bearer');
  expect(await without.text()).not.toContain('mailstead_');
  expect((await operations('/metrics', { headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);
  expect((await operations('/metrics', { headers: { authorization: token } })).status).toBe(401);

  const response = await operations('/metrics', { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  for (const name of [
    'mailstead_database_up',
    'mailstead_queue_messages',
    'mailstead_webhook_backlog',
    'nodejs_eventloop_lag_seconds',
    'process_cpu_seconds_total',
  ]) {
    expect(text, name).toContain(`\n${name}`);
  }
  expect(await valueOf('mailstead_database_up', {}, text)).toBe(1);
});

test('GET /metrics - the web port does not serve it, and the operations port serves nothing else', async () => {
  const web = await fetch(`${server.baseUrl}/metrics`, {
    headers: { authorization: `Bearer ${token}` },
    dispatcher: trustingAgent(server.dataDir),
  });
  expect(await web.text()).not.toContain('mailstead_deliveries_total');
  expect((await operations('/v2/ping')).status).toBe(404);
  expect((await operations('/metrics', { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status).toBe(
    405,
  );
});

test('a delivery is counted by outcome, its SMTP reply by class and its latency in the histogram; queue depth is present by state', async () => {
  const before = parseExposition(await scrapeText());
  const at = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
    samples.find(
      (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )?.value ?? 0;
  const gone = `gone@${rcptDomain}`;
  suite.mx.script(gone, { code: 550, message: '5.1.1 no such user' });
  const sent = await api.post(api.account('/messages'), {
    from: { email: `ops@${sender}` },
    recipients: [{ email: `ada@${rcptDomain}` }, { email: gone }],
    subject: 'Counted',
    text_content: 'One delivered, one bounced.',
  });
  expect(sent.status).toBe(202);
  const [deliveredId, bouncedId] = sent.body.data.map((item: { id: string }) => item.id);
  await waitForStatus(api, deliveredId, 'Delivered');
  await waitForStatus(api, bouncedId, 'Bounced');

  const after = parseExposition(await scrapeText());
  expect(at(after, 'mailstead_deliveries_total', { outcome: 'delivered' })).toBe(
    at(before, 'mailstead_deliveries_total', { outcome: 'delivered' }) + 1,
  );
  expect(at(after, 'mailstead_deliveries_total', { outcome: 'bounced' })).toBe(
    at(before, 'mailstead_deliveries_total', { outcome: 'bounced' }) + 1,
  );
  expect(at(after, 'mailstead_smtp_responses_total', { class: '2xx' })).toBe(
    at(before, 'mailstead_smtp_responses_total', { class: '2xx' }) + 1,
  );
  expect(at(after, 'mailstead_smtp_responses_total', { class: '5xx' })).toBe(
    at(before, 'mailstead_smtp_responses_total', { class: '5xx' }) + 1,
  );
  expect(at(after, 'mailstead_delivery_latency_seconds_count')).toBe(
    at(before, 'mailstead_delivery_latency_seconds_count') + 1,
  );
  expect(at(after, 'mailstead_delivery_latency_seconds_bucket', { le: '+Inf' })).toBe(
    at(after, 'mailstead_delivery_latency_seconds_count'),
  );
  for (const state of ['queued', 'deferred', 'scheduled']) {
    expect(
      after.find((sample) => sample.name === 'mailstead_queue_messages' && sample.labels.state === state)?.value,
      state,
    ).toBeGreaterThanOrEqual(0);
  }
  if (server.env.DATABASE_URL)
    expect(at(after, 'mailstead_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
});

test('an API request is counted by its route pattern and status, never by its raw path', async () => {
  const sent = await api.post(api.account('/messages'), {
    from: { email: `ops@${sender}` },
    recipients: [{ email: `bob@${rcptDomain}` }],
    subject: 'Pattern',
    text_content: 'x',
  });
  const messageId: string = sent.body.data[0].id;
  const route = '/v2/accounts/:account_id/messages/:message_id';
  const before = {
    found: (await valueOf('mailstead_http_requests_total', { method: 'GET', route, status: '200' })) ?? 0,
    missing: (await valueOf('mailstead_http_requests_total', { method: 'GET', route, status: '404' })) ?? 0,
  };

  expect((await api.get(api.account(`/messages/${messageId}`))).status).toBe(200);
  expect((await api.get(api.account(`/messages/${messageId}`))).status).toBe(200);
  expect(
    (await api.get(api.account('/messages/0193a6f4-1111-7222-8333-944455556666'), { checkContract: false })).status,
  ).toBe(404);
  expect((await api.get('/v2/no-such-route-here', { checkContract: false })).status).toBe(404);

  const text = await scrapeText();
  expect(await valueOf('mailstead_http_requests_total', { method: 'GET', route, status: '200' }, text)).toBe(
    before.found + 2,
  );
  expect(await valueOf('mailstead_http_requests_total', { method: 'GET', route, status: '404' }, text)).toBe(
    before.missing + 1,
  );
  expect(
    await valueOf('mailstead_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }, text),
  ).toBeGreaterThanOrEqual(1);
  expect(
    await valueOf('mailstead_http_request_duration_seconds_count', { method: 'GET', route }, text),
  ).toBeGreaterThanOrEqual(3);
  // No id of any kind reaches a label: one series per pattern, whatever the ids.
  for (const id of [api.accountId!, messageId, '0193a6f4-1111-7222-8333-944455556666', 'no-such-route-here'])
    expect(text).not.toContain(id);
});

test('/healthz and /readyz answer on the web port (HTTPS and plain HTTP) and on the operations port, unauthenticated and never rate limited', async () => {
  const agent = trustingAgent(server.dataDir);
  const plainWeb = `http://127.0.0.1:${server.port}`;
  for (const base of [server.baseUrl, plainWeb, `http://127.0.0.1:${metricsPort}`]) {
    const health = await fetch(`${base}/healthz`, { dispatcher: base.startsWith('https') ? agent : undefined });
    expect(health.status, base).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${base}/readyz`, { dispatcher: base.startsWith('https') ? agent : undefined });
    expect(ready.status, base).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      failing: [],
      checks: {
        database: 'ok',
        migrations: 'ok',
        roles: { web: 'started', worker: 'started', smtp: 'started', mx: 'started' },
        process: 'running',
      },
    });
  }
  // Past the API's burst (200) within a second or two: probes do not go through the rate limiter.
  const statuses = new Set<number>();
  for (let i = 0; i < 220; i++) {
    const response = await fetch(`${server.baseUrl}/${i % 2 ? 'readyz' : 'healthz'}`, { dispatcher: agent });
    await response.arrayBuffer();
    statuses.add(response.status);
  }
  expect(statuses).toEqual(new Set([200]));
  const head = await fetch(`${server.baseUrl}/healthz`, { method: 'HEAD', dispatcher: agent });
  expect(head.status).toBe(200);
  expect((await fetch(`${server.baseUrl}/readyz`, { method: 'POST', dispatcher: agent })).status).toBe(405);
});

test('one delivery batch and one SMTP session can be followed in the logs by their ids', async () => {
  const sent = await api.post(api.account('/messages'), {
    from: { email: `ops@${sender}` },
    recipients: [{ email: `cy@${rcptDomain}` }],
    subject: 'Followed',
    text_content: 'x',
  });
  const apiId: string = sent.body.data[0].id;
  await waitForStatus(api, apiId, 'Delivered');
  // The API names a message `<id@sender domain>`; log lines carry the id alone.
  const messageId = /^<([^@>]+)@/.exec(apiId)![1];
  const lines = () =>
    readFileSync(server.logFile, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));

  let outcome: any;
  await expect
    .poll(() => (outcome = lines().find((line) => line.msg === 'delivery outcome' && line.messageId === messageId)))
    .toBeTruthy();
  expect(outcome).toMatchObject({ outcome: 'delivered', batchId: expect.any(String) });
  expect(
    lines()
      .filter((line) => line.batchId === outcome.batchId)
      .map((line) => line.msg),
  ).toContain('delivery batch claimed');

  const replies = await converse(mxPort, [
    'EHLO probe.example',
    'MAIL FROM:<someone@probe.example>',
    `RCPT TO:<nobody@unrouted-${stamp}.example>`,
    'QUIT',
  ]);
  expect(replies[2]).toMatch(/^550 /);
  await expect
    .poll(() => {
      const refused = lines().find(
        (line) => line.msg === 'mx recipient refused' && line.recipient === `nobody@unrouted-${stamp}.example`,
      );
      return refused
        ? lines()
            .filter((line) => line.smtpSession === refused.smtpSession)
            .map((line) => `${line.smtpRole} ${line.msg}`)
        : [];
    })
    .toEqual(['mx smtp session opened', 'mx mx recipient refused', 'mx smtp session closed']);

  // Submission: nothing is accepted before AUTH, and the session's lines share its id all the same.
  const submission = await converse(Number(server.env.SMTP_SUBMISSION_PORT), [
    'EHLO probe.example',
    'MAIL FROM:<someone@probe.example>',
    'QUIT',
  ]);
  expect(submission[1]).toMatch(/^530 /);
  await expect
    .poll(() => {
      const sessions = new Set(
        lines()
          .filter((line) => line.smtpRole === 'submission')
          .map((line) => line.smtpSession),
      );
      return [...sessions].map((id) =>
        lines()
          .filter((line) => line.smtpSession === id)
          .map((line) => line.msg),
      );
    })
    .toContainEqual(['smtp session opened', 'smtp session closed']);
});

test('/readyz is 503 naming the database while it refuses connections, /healthz stays 200, and readiness returns with the database', async () => {
  // PGlite lives inside the process and cannot be taken away from it: tests/lib/server/readiness.test.ts covers that path.
  test.skip(!server.env.DATABASE_URL, 'PostgreSQL run only');
  const name = new URL(server.env.DATABASE_URL!).pathname.slice(1);
  const admin = new pg.Client({ connectionString: postgresAdminUrl()! });
  await admin.connect();
  const ready = () =>
    operations('/readyz').then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
  try {
    await admin.query(`alter database "${name}" allow_connections false`);
    await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name],
    );
    await expect.poll(async () => (await ready()).status, { timeout: 20_000 }).toBe(503);
    const { body } = await ready();
    expect(body).toMatchObject({
      status: 'not ready',
      checks: { database: expect.stringMatching(/^(unreachable|no answer within \d+ ms)$/), migrations: 'unknown' },
    });
    expect(body.failing).toEqual(expect.arrayContaining(['database']));
    expect(JSON.stringify(body)).not.toContain(name);
    expect((await operations('/healthz')).status).toBe(200);
    await expect.poll(() => valueOf('mailstead_database_up'), { timeout: 20_000 }).toBe(0);
  } finally {
    await admin.query(`alter database "${name}" allow_connections true`);
    await admin.end();
  }
  await expect.poll(async () => (await ready()).status, { timeout: 20_000 }).toBe(200);
});
