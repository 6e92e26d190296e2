/**
 * The submission case of `npm run bench`: SMTP submission throughput. 4 nodemailer pooled sessions
 * (STARTTLS, AUTH PLAIN, one message in flight each) submit 10 KB messages with one credential to a
 * server running the web and smtp roles only, so nothing is delivered while acceptance is timed
 * (250 = stored). Then a worker-only process drains the queue into a loopback sink (DKIM on).
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { createAccountWithKey } from '../e2e/support/cli';
import type { TestDnsServer } from '../e2e/support/dns-server';
import { freePort, startServer, tempDataDir, trustingAgent } from '../e2e/support/server';
import { api, benchServerEnv, cpuMs, percentile, tracked, type DatabaseName } from './bench-support';
import { startSink } from './delivery';

const SESSIONS = Number(process.env.BENCH_SUBMISSION_SESSIONS ?? 4);
const MESSAGES = Number(process.env.BENCH_SUBMISSION_MESSAGES ?? 2000);
// 10 KB of 71-character lines, as a text part would be written.
const BODY = 'Submitted over SMTP to measure how fast Mailstead stores each message.\n'.repeat(144);

export type SubmissionResult = {
  database: DatabaseName;
  acceptedPerSecond: number;
  p50: number;
  p99: number;
  serverCpuMsPerMessage: number;
  deliveredPerSecond: number;
};

export async function runSubmissionBench(database: DatabaseName, dns: TestDnsServer): Promise<SubmissionResult> {
  const sink = await startSink();
  const dataDir = tempDataDir('ms-bench-sub-');
  const { env, drop } = await benchServerEnv(database, dns, {
    dataDir,
    sinkPort: sink.port,
    databaseName: 'mailstead_bench_submission',
    extra: {
      SMTP_SUBMISSION_PORT: String(await freePort()),
      SMTP_SUBMISSION_TLS_PORT: '0',
      // The per-credential limit (50/s by default) is not what is measured.
      SMTP_RATE_LIMIT_PER_SECOND: '1000000',
      SMTP_RATE_LIMIT_BURST: '1000000',
    },
  });
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean);
  try {
    const account = await createAccountWithKey(env, 'Submission bench');
    const server = tracked(await startServer({ dataDir, env: { ...env, ROLES: 'web,smtp' }, nodeArgs }));
    const agent = trustingAgent(dataDir);
    const base = `/v2/accounts/${account.accountId}`;
    const call = (method: string, route: string, body?: unknown, expected = 0) =>
      api(server, agent, account.apiKey, method, base + route, body, expected);

    const domain = `submission-bench-${Date.now().toString(36)}.example.com`;
    const created = await call('POST', '/domains', { domain }, 201);
    for (const record of (created.dns_records ?? []) as { type: string; host: string; content: string }[]) {
      if (record.type === 'TXT') dns.set(record.host, 'TXT', [record.content]);
      if (record.type === 'CNAME') dns.set(record.host, 'CNAME', record.content);
    }
    await call('POST', `/domains/${domain}/check-dns`);
    const credential = (await call('POST', '/smtp-credentials', { name: 'Bench', scope: 'global' }, 201)) as {
      username: string;
      password: string;
    };

    const ca = readFileSync(path.join(dataDir, 'tls', 'cert.pem'), 'utf8');
    const transports = Array.from({ length: SESSIONS }, () =>
      nodemailer.createTransport({
        pool: true,
        maxConnections: 1,
        maxMessages: Infinity,
        host: '127.0.0.1',
        port: Number(env.SMTP_SUBMISSION_PORT),
        secure: false,
        requireTLS: true,
        tls: { ca, servername: 'localhost' },
        auth: { user: credential.username, pass: credential.password },
      }),
    );
    const send = (transport: (typeof transports)[number], index: number) =>
      transport.sendMail({
        from: `Bench <bench@${domain}>`,
        to: `r${index}@sink.example`,
        subject: `Bench ${index}`,
        text: BODY,
      });
    // Connected, encrypted and signed in before the clock starts: one message per session.
    await Promise.all(transports.map((transport, session) => send(transport, MESSAGES + session)));

    const latencies: number[] = [];
    let next = 0;
    const cpuBefore = cpuMs(server.process.pid!);
    const started = performance.now();
    await Promise.all(
      transports.map(async (transport) => {
        while (next < MESSAGES) {
          const index = next++;
          const t0 = performance.now();
          const info = await send(transport, index);
          latencies.push(performance.now() - t0);
          if (!info.response.startsWith('250 ')) throw new Error(`message ${index}: ${info.response}`);
        }
      }),
    );
    const acceptSeconds = (performance.now() - started) / 1000;
    const serverCpuMs = cpuMs(server.process.pid!) - cpuBefore;
    transports.forEach((transport) => transport.close());
    await server.stop();
    await agent.close();

    // Delivery: a worker-only process drains what was accepted (the warm-up messages included).
    const queued = MESSAGES + SESSIONS;
    const worker = tracked(
      await startServer({
        dataDir,
        env: { ...env, ROLES: 'worker', PORT: String(await freePort()) },
        waitForReady: false,
      }),
    );
    const deliveryStart = performance.now();
    let firstAt = 0;
    while (sink.received() < queued) {
      if (!firstAt && sink.received() > 0) firstAt = performance.now();
      if (worker.process.exitCode !== null) throw new Error('worker exited');
      if (performance.now() - deliveryStart > 600_000)
        throw new Error(`delivery stalled at ${sink.received()}/${queued}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Counted from the first delivery, so that process start-up is not part of the rate.
    const deliverySeconds = (performance.now() - (firstAt || deliveryStart)) / 1000;
    await worker.stop();
    return {
      database,
      acceptedPerSecond: Math.round(MESSAGES / acceptSeconds),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      serverCpuMsPerMessage: serverCpuMs / MESSAGES,
      deliveredPerSecond: Math.round(queued / deliverySeconds),
    };
  } finally {
    await sink.stop();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printSubmissionResults(results: SubmissionResult[]) {
  console.log(
    `\n${MESSAGES} messages of 10 KB over ${SESSIONS} SMTP sessions (STARTTLS, AUTH, one message in flight each), one credential`,
  );
  console.log(
    'accepted/s: 250 received (stored), with no worker running; delivered/s: drained afterwards by a worker-only process into a loopback sink, DKIM on\n',
  );
  console.log('| database   | accepted/s | p50 (ms) | p99 (ms) | server CPU (ms/message) | delivered/s |');
  console.log('|------------|------------|----------|----------|-------------------------|-------------|');
  for (const r of results) {
    console.log(
      `| ${r.database.padEnd(10)} | ${String(r.acceptedPerSecond).padStart(10)} | ${r.p50.toFixed(1).padStart(8)} | ${r.p99.toFixed(1).padStart(8)} | ${r.serverCpuMsPerMessage.toFixed(2).padStart(23)} | ${String(r.deliveredPerSecond).padStart(11)} |`,
    );
  }
}
