/**
 * The webhook-backoff case of `npm run bench`: one webhook subscribed to every event, pointing at an
 * endpoint that never works (a closed loopback port, or a loopback TLS port that resets every
 * connection), with about 5,000 deliveries queued for it (sandbox sends). Once the backlog has
 * formed and the endpoint has failed, the server is left alone and its CPU measured (from /proc,
 * with its descendants) over BENCH_IDLE_SECONDS (60 by default). The target: under 5% of a core.
 */
import net, { type AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { fetch } from 'undici';
import { createAccountWithKey } from '../e2e/support/cli';
import type { TestDnsServer } from '../e2e/support/dns-server';
import { freePort, startServer, tempDataDir, trustingAgent } from '../e2e/support/server';
import { api, benchServerEnv, cpuMs, tracked, type DatabaseName } from './bench-support';
import { startSink } from './delivery';

const DELIVERIES = Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? 5000);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
const ALL_EVENTS = [
  'on_reception',
  'on_delivered',
  'on_transient_error',
  'on_failed',
  'on_bounced',
  'on_suppressed',
  'on_opened',
  'on_clicked',
  'on_suppression_created',
  'on_dns_error',
];

export type EndpointKind = 'closed port' | 'TLS reset';
export type WebhookBackoffResult = {
  database: DatabaseName;
  endpoint: EndpointKind;
  backlog: number;
  attemptsInWindow: number;
  idleCpuPercent: number;
};

/** CPU of a process (with its descendants) over `seconds` of leaving it alone, in % of one core. */
async function idleCpuPercent(pid: number, seconds: number): Promise<number> {
  const before = cpuMs(pid);
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return ((cpuMs(pid) - before) / (performance.now() - started)) * 100;
}

/** An endpoint that never answers: nothing listening, or a listener that drops each connection before TLS. */
async function unreachableEndpoint(kind: EndpointKind): Promise<{ url: string; stop: () => Promise<void> }> {
  if (kind === 'closed port') return { url: `http://127.0.0.1:${await freePort()}/hook`, stop: async () => {} };
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function backlogOf(metricsPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return [...text.matchAll(/^mailstead_webhook_backlog\{state="(?:pending|retrying)"\} (\d+)/gm)].reduce(
    (sum, match) => sum + Number(match[1]),
    0,
  );
}

export async function runWebhookBackoffBench(
  database: DatabaseName,
  dns: TestDnsServer,
  kind: EndpointKind,
): Promise<WebhookBackoffResult> {
  const sink = await startSink();
  const endpoint = await unreachableEndpoint(kind);
  const dataDir = tempDataDir('ms-bench-webhook-');
  const metricsPort = await freePort();
  const { env, drop } = await benchServerEnv(database, dns, {
    dataDir,
    sinkPort: sink.port,
    databaseName: 'mailstead_bench_webhook',
    extra: { METRICS_PORT: String(metricsPort) },
  });
  try {
    const account = await createAccountWithKey(env, 'Webhook backoff bench');
    const server = tracked(await startServer({ dataDir, env: { ...env, ROLES: 'web,worker' } }));
    const agent = trustingAgent(dataDir);
    const base = `/v2/accounts/${account.accountId}`;
    const call = (method: string, path: string, body?: unknown, expected = 0) =>
      api(server, agent, account.apiKey, method, base + path, body, expected);
    const domain = `webhook-bench-${Date.now().toString(36)}.example.com`;
    const created = await call('POST', '/domains', { domain }, 201);
    for (const record of (created.dns_records ?? []) as { type: string; host: string; content: string }[]) {
      if (record.type === 'TXT') dns.set(record.host, 'TXT', [record.content]);
      if (record.type === 'CNAME') dns.set(record.host, 'CNAME', record.content);
    }
    await call('POST', `/domains/${domain}/check-dns`);
    const webhook = await call(
      'POST',
      '/webhooks',
      {
        name: 'Unreachable',
        url: endpoint.url,
        scope: 'global',
        ...Object.fromEntries(ALL_EVENTS.map((flag) => [flag, true])),
      },
      201,
    );

    // A sandbox send makes two events per recipient (reception, delivered).
    for (let sent = 0; sent < DELIVERIES / 2; sent += 100) {
      const recipients = Array.from({ length: Math.min(100, DELIVERIES / 2 - sent) }, (_, index) => ({
        email: `r${sent + index}@sink.example`,
      }));
      await call(
        'POST',
        '/messages',
        { from: { email: `news@${domain}` }, recipients, subject: 'Bench', text_content: 'x', sandbox: true },
        202,
      );
    }
    const deadline = Date.now() + 300_000;
    let backlog = 0;
    for (;;) {
      backlog = await backlogOf(metricsPort);
      const state = (await call('GET', `/webhooks/${webhook.id}`)) as { error_count: number };
      if (backlog >= DELIVERIES * 0.95 && state.error_count > 0) break;
      if (Date.now() > deadline)
        throw new Error(`the backlog did not form: ${backlog} deliveries, ${state.error_count} failed attempts`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    // Let the first failures settle, then leave the server alone.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const errorsBefore = ((await call('GET', `/webhooks/${webhook.id}`)) as { error_count: number }).error_count;
    const idle = await idleCpuPercent(server.process.pid!, IDLE_SECONDS);
    const errorsAfter = ((await call('GET', `/webhooks/${webhook.id}`)) as { error_count: number }).error_count;
    await server.stop();
    await agent.close();
    return { database, endpoint: kind, backlog, attemptsInWindow: errorsAfter - errorsBefore, idleCpuPercent: idle };
  } finally {
    await endpoint.stop();
    await sink.stop();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printWebhookBackoffResults(results: WebhookBackoffResult[]) {
  console.log(
    `\n| database   | endpoint    | deliveries waiting | attempts in ${IDLE_SECONDS} s | idle server CPU (target < 5) |`,
  );
  console.log('|------------|-------------|--------------------|-------------------|------------------------------|');
  for (const r of results) {
    console.log(
      `| ${r.database.padEnd(10)} | ${r.endpoint.padEnd(11)} | ${String(r.backlog).padStart(18)} | ${String(r.attemptsInWindow).padStart(17)} | ${`${r.idleCpuPercent.toFixed(1)} %`.padStart(28)} |`,
    );
  }
  console.log(
    "(% of one core, from /proc: the server process and its threads; PostgreSQL's own processes are not counted)",
  );
}
