/**
 * The delivery case of `npm run bench`: acceptance and delivery throughput.
 *
 * Acceptance: 100-recipient POST /v2/.../messages from 4 accounts (so that the per-account rate
 * limit is not what is measured), against a server running only the web role.
 * Delivery: the same queue drained by a server running only the worker role into an SMTP sink on
 * loopback that answers 250 to everything; 10 KB messages, DKIM on.
 */
import pg from 'pg';
import { createAccountWithKey } from '../e2e/support/cli';
import type { TestDnsServer } from '../e2e/support/dns-server';
import { freePort, startServer, tempDataDir, trustingAgent } from '../e2e/support/server';
import { api, benchServerEnv, cpuMs, percentile, tracked, type DatabaseName } from './bench-support';
import { countingSmtpServer } from './sink-process';

const ACCOUNTS = 4;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const RECIPIENTS_PER_REQUEST = 100;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const BODY = 'x'.repeat(10 * 1024);

export type DeliveryResult = {
  database: string;
  acceptedPerSecond: number;
  p50: number;
  p99: number;
  deliveredPerSecond: number;
  workerCpuMs: number;
  databaseCpuMs: number | null;
  messages: number;
};

/** CPU used by the PostgreSQL backends serving one database (alive now), in ms. */
export async function databaseCpuMs(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  await client.end();
  return rows.reduce((sum, row) => sum + cpuMs(row.pid), 0);
}

export async function startSink() {
  let count = 0;
  const port = await freePort();
  const server = countingSmtpServer(() => count++);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return { port, received: () => count, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export async function runDeliveryBench(database: DatabaseName, dns: TestDnsServer): Promise<DeliveryResult> {
  const sink = await startSink();
  const dataDir = tempDataDir('ms-bench-');
  const { env, drop } = await benchServerEnv(database, dns, {
    dataDir,
    sinkPort: sink.port,
    databaseName: 'mailstead_bench',
  });
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean);
  const web = tracked(await startServer({ dataDir, env: { ...env, ROLES: 'web' }, nodeArgs }));
  const agent = trustingAgent(dataDir);
  const accounts: { accountId: string; apiKey: string; domain: string }[] = [];
  const senderDomain = `bench-${Date.now().toString(36)}.example.com`;
  for (let i = 0; i < ACCOUNTS; i++) {
    const account = await createAccountWithKey(web.env, `Bench ${i}`);
    const domain = `a${i}.${senderDomain}`;
    const created = await api(web, agent, account.apiKey, 'POST', `/v2/accounts/${account.accountId}/domains`, {
      domain,
    });
    for (const record of (created.dns_records ?? []) as { type: string; host: string; content: string }[]) {
      if (record.type === 'TXT') dns.set(record.host, 'TXT', [record.content]);
      if (record.type === 'CNAME') dns.set(record.host, 'CNAME', record.content);
    }
    await api(web, agent, account.apiKey, 'POST', `/v2/accounts/${account.accountId}/domains/${domain}/check-dns`);
    accounts.push({ ...account, domain });
  }

  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      while (next < REQUESTS) {
        const index = next++;
        const account = accounts[(index + worker) % ACCOUNTS];
        const body = {
          from: { email: `bench@${account.domain}`, name: 'Bench' },
          recipients: Array.from({ length: RECIPIENTS_PER_REQUEST }, (_, r) => ({
            email: `r${index}-${r}@sink.example`,
            name: `R ${r}`,
          })),
          subject: `Bench ${index}`,
          text_content: BODY,
        };
        const t0 = performance.now();
        await api(web, agent, account.apiKey, 'POST', `/v2/accounts/${account.accountId}/messages`, body, 202);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const acceptSeconds = (performance.now() - started) / 1000;
  const messages = REQUESTS * RECIPIENTS_PER_REQUEST;
  await web.stop();

  // Delivery: a worker-only process drains what the web process accepted.
  const worker = tracked(
    await startServer({
      dataDir,
      env: { ...env, ROLES: 'worker', PORT: String(await freePort()) },
      waitForReady: false,
      nodeArgs,
    }),
  );
  const deliveryStart = performance.now();
  let firstAt = 0;
  let cpuAtFirst = 0;
  while (sink.received() < messages) {
    if (!firstAt && sink.received() > 0) {
      firstAt = performance.now();
      cpuAtFirst = cpuMs(worker.process.pid!);
    }
    if (worker.process.exitCode !== null) throw new Error('worker exited');
    if (performance.now() - deliveryStart > 600_000)
      throw new Error(`delivery stalled at ${sink.received()}/${messages}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Counted from the first delivery, so that process start-up is not part of the rate.
  const deliverySeconds = (performance.now() - (firstAt || deliveryStart)) / 1000;
  const workerCpuMs = cpuMs(worker.process.pid!) - cpuAtFirst;
  const databaseCpu = env.DATABASE_URL ? await databaseCpuMs(env.DATABASE_URL) : null;
  await worker.stop();
  await sink.stop();
  await drop?.();
  return {
    database,
    acceptedPerSecond: Math.round(messages / acceptSeconds),
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    deliveredPerSecond: Math.round(messages / deliverySeconds),
    workerCpuMs: workerCpuMs / messages,
    databaseCpuMs: databaseCpu === null ? null : databaseCpu / messages,
    messages,
  };
}

export function printDeliveryResults(results: DeliveryResult[]) {
  console.log(
    `\n${REQUESTS} requests x ${RECIPIENTS_PER_REQUEST} recipients from ${ACCOUNTS} accounts, ${CONCURRENCY} in flight; 10 KB messages, DKIM on\n`,
  );
  console.log(
    '| database   | acceptance (recipients/s) | p50 (ms) | p99 (ms) | delivery (messages/s) | worker CPU (ms/message) | PostgreSQL CPU (ms/message) |',
  );
  console.log(
    '|------------|---------------------------|----------|----------|-----------------------|-------------------------|-----------------------------|',
  );
  for (const r of results) {
    const databaseCpu = r.databaseCpuMs === null ? '-' : r.databaseCpuMs.toFixed(2);
    console.log(
      `| ${r.database.padEnd(10)} | ${String(r.acceptedPerSecond).padStart(25)} | ${String(r.p50).padStart(8)} | ${String(r.p99).padStart(8)} | ${String(r.deliveredPerSecond).padStart(21)} | ${r.workerCpuMs.toFixed(2).padStart(23)} | ${databaseCpu.padStart(27)} |`,
    );
  }
}
