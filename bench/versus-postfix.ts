/**
 * The versus-postfix case of `npm run bench`: the same N messages of 10 KB delivered end to end by
 * Postfix and by Mailstead into the same kind of loopback sink (a process of its own, as a
 * recipient's MX is another machine: bench/sink-process.ts), timed from the first injection to the
 * sink holding all N; BENCH_VERSUS_RUNS runs, each Postfix then Mailstead on every database.
 *
 * Postfix: a private instance (bench/postfix-instance.ts) with Debian's defaults (fsync'd queue,
 * 20 connections to the relay), no DKIM; pre-built messages injected over SESSIONS pooled
 * nodemailer sessions. Mailstead: one server with the web and worker roles, DKIM on, 100-recipient
 * API requests offered at BENCH_VERSUS_ACCEPT_RATE recipients/s (default 5,000); acceptance
 * p50/p99 are those requests', answered while delivery runs.
 *
 * Each side first sends BENCH_VERSUS_WARMUP messages the same way (default 5,000), delivered before
 * the timed part starts: the figures are of a server that has been running, not of its first
 * seconds (Node compiles its hot code then: a cold server's first requests take 50-170 ms).
 */
import { rmSync } from 'node:fs';
import os from 'node:os';
import nodemailer from 'nodemailer';
import { createAccountWithKey } from '../e2e/support/cli';
import type { TestDnsServer } from '../e2e/support/dns-server';
import { startServer, tempDataDir, trustingAgent } from '../e2e/support/server';
import { api, benchServerEnv, cpuMs, percentile, tracked, type DatabaseName } from './bench-support';
import { databaseCpuMs } from './delivery';
import { startSinkProcess } from './sink-process';
import { ensurePostfix, startPostfix } from './postfix-instance';

const MESSAGES = Number(process.env.BENCH_VERSUS_MESSAGES ?? 20_000);
const RUNS = Number(process.env.BENCH_VERSUS_RUNS ?? 3);
const SESSIONS = Number(process.env.BENCH_VERSUS_SESSIONS ?? 16);
const WARMUP = Number(process.env.BENCH_VERSUS_WARMUP ?? 5_000);
const RECIPIENTS_PER_REQUEST = 100;
// Recipients per second offered to the API while Mailstead delivers (issue 15: p99 < 100 ms at 5,000/s).
const ACCEPT_RATE = Number(process.env.BENCH_VERSUS_ACCEPT_RATE ?? 5000);
// Issue 35: on this kind of (2-core, slower) machine, 2x on PGlite and 2.5x on PostgreSQL.
const TARGETS: Record<DatabaseName, number> = { PGlite: 2, PostgreSQL: 2.5 };
// 10 KB of 71-character lines, the same text for both sides.
const BODY = 'Delivered end to end to compare Mailstead with Postfix on one machine.\n'.repeat(144);

type PostfixRun = { perSecond: number; cpuMsPerMessage: number };
// CPU: Mailstead's process, plus (on PostgreSQL) its database backends'.
type MailsteadRun = PostfixRun & { p50: number; p99: number; databaseCpuMsPerMessage: number };
type VersusRun = { postfix: PostfixRun | null; mailstead: Partial<Record<DatabaseName, MailsteadRun>> };
export type VersusResult = {
  databases: DatabaseName[];
  runs: VersusRun[];
  skipped: string | null;
  load: { before: number[]; after: number[] };
};

/** Waits until the sink holds `expected` messages; fails when it stops moving for a minute. */
async function waitForSink(sink: { received: () => number }, expected: number, isAlive: () => boolean = () => true) {
  let last = -1;
  let lastMoved = performance.now();
  while (sink.received() < expected) {
    if (sink.received() !== last) [last, lastMoved] = [sink.received(), performance.now()];
    if (!isAlive()) throw new Error(`the server exited at ${last}/${expected} delivered`);
    if (performance.now() - lastMoved > 60_000) throw new Error(`delivery stalled at ${last}/${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function runPostfix(): Promise<PostfixRun> {
  const sink = await startSinkProcess();
  const instance = await startPostfix(sink.port);
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: SESSIONS,
    maxMessages: Infinity,
    host: '127.0.0.1',
    port: instance.port,
    secure: false,
    ignoreTLS: true,
    name: 'injector.bench.test',
  });
  try {
    const body = Buffer.from(BODY.replace(/\n/g, '\r\n'));
    const date = new Date().toUTCString();
    const send = (index: number) => {
      const to = `r${index}@sink.example`;
      const headers = `From: Bench <bench@sender.example>\r\nTo: <${to}>\r\nSubject: Bench ${index}\r\nDate: ${date}\r\nMessage-ID: <${index}.versus@sender.example>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n`;
      return transport.sendMail({
        envelope: { from: 'bench@sender.example', to: [to] },
        raw: Buffer.concat([Buffer.from(headers), body]),
      });
    };
    let next = 0;
    // Two messages queued per session, so that every session always has the next one at hand.
    const inject = async (upTo: number) => {
      await Promise.all(
        Array.from({ length: SESSIONS * 2 }, async () => {
          while (next < upTo) await send(next++);
        }),
      );
      await waitForSink(sink, upTo);
    };
    await inject(WARMUP);
    const cpuBefore = instance.cpuMs();
    const started = performance.now();
    await inject(WARMUP + MESSAGES);
    return {
      perSecond: MESSAGES / ((performance.now() - started) / 1000),
      cpuMsPerMessage: (instance.cpuMs() - cpuBefore) / MESSAGES,
    };
  } finally {
    transport.close();
    await instance.stop();
    await sink.stop();
  }
}

async function runMailstead(database: DatabaseName, dns: TestDnsServer): Promise<MailsteadRun> {
  const sink = await startSinkProcess();
  const dataDir = tempDataDir('ms-bench-versus-');
  const { env, drop } = await benchServerEnv(database, dns, {
    dataDir,
    sinkPort: sink.port,
    databaseName: 'mailstead_bench_versus',
    extra: {
      // The per-account API limit (100/s) is not what is measured.
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      // The product's default on PostgreSQL, one process per core (test servers run one).
      ...(database === 'PostgreSQL' ? { WORKERS: process.env.BENCH_WORKERS ?? String(os.availableParallelism()) } : {}),
    },
  });
  const server = tracked(
    await startServer({
      dataDir,
      env: { ...env, ROLES: 'web,worker' },
      nodeArgs: process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean),
    }),
  );
  const agent = trustingAgent(dataDir);
  try {
    const account = await createAccountWithKey(server.env, 'Versus bench');
    const base = `/v2/accounts/${account.accountId}`;
    const domain = `versus-${Date.now().toString(36)}.example.com`;
    const created = await api(server, agent, account.apiKey, 'POST', `${base}/domains`, { domain }, 201);
    for (const record of (created.dns_records ?? []) as { type: string; host: string; content: string }[]) {
      if (record.type === 'TXT') dns.set(record.host, 'TXT', [record.content]);
      if (record.type === 'CNAME') dns.set(record.host, 'CNAME', record.content);
    }
    await api(server, agent, account.apiKey, 'POST', `${base}/domains/${domain}/check-dns`);

    // Open loop: request i is due at i * interval whatever the earlier ones do, and its latency
    // counts from when it was due, so a server that falls behind cannot hide it by slowing us down.
    const offer = async (messages: number, label: string) => {
      const started = performance.now();
      const latencies: number[] = [];
      const interval = (RECIPIENTS_PER_REQUEST / ACCEPT_RATE) * 1000;
      await Promise.all(
        Array.from({ length: Math.ceil(messages / RECIPIENTS_PER_REQUEST) }, async (_, index) => {
          const due = started + index * interval;
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
          const count = Math.min(RECIPIENTS_PER_REQUEST, messages - index * RECIPIENTS_PER_REQUEST);
          const body = {
            from: { email: `bench@${domain}`, name: 'Bench' },
            recipients: Array.from({ length: count }, (_, r) => ({ email: `${label}${index}-${r}@sink.example` })),
            subject: `Bench ${index}`,
            text_content: BODY,
          };
          await api(server, agent, account.apiKey, 'POST', `${base}/messages`, body, 202);
          latencies.push(performance.now() - due);
        }),
      );
      return latencies;
    };
    await offer(WARMUP, 'w');
    await waitForSink(sink, WARMUP, () => server.process.exitCode === null);

    const databaseCpu = () => (env.DATABASE_URL ? databaseCpuMs(env.DATABASE_URL) : Promise.resolve(0));
    const databaseCpuBefore = await databaseCpu();
    const cpuBefore = cpuMs(server.process.pid!);
    const started = performance.now();
    const latencies = await offer(MESSAGES, 'r');
    await waitForSink(sink, WARMUP + MESSAGES, () => server.process.exitCode === null);
    const seconds = (performance.now() - started) / 1000;
    const cpuMsPerMessage = (cpuMs(server.process.pid!) - cpuBefore) / MESSAGES;
    const databaseCpuMsPerMessage = ((await databaseCpu()) - databaseCpuBefore) / MESSAGES;
    return {
      perSecond: MESSAGES / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      cpuMsPerMessage,
      databaseCpuMsPerMessage,
    };
  } finally {
    await server.stop();
    await agent.close();
    await sink.stop();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runVersusPostfixBench(databases: DatabaseName[], dns: TestDnsServer): Promise<VersusResult> {
  // BENCH_VERSUS_POSTFIX=off measures Mailstead alone (before/after comparisons of its own CPU).
  const postfix =
    process.env.BENCH_VERSUS_POSTFIX === 'off'
      ? ({ isReady: false, reason: 'BENCH_VERSUS_POSTFIX=off' } as const)
      : ensurePostfix();
  if (!postfix.isReady) console.warn(`\n!!! versus-postfix: the Postfix side is SKIPPED: ${postfix.reason}`);
  const before = os.loadavg();
  const runs: VersusRun[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const result: VersusRun = { postfix: postfix.isReady ? await runPostfix() : null, mailstead: {} };
    for (const database of databases) result.mailstead[database] = await runMailstead(database, dns);
    runs.push(result);
    console.log(
      `versus-postfix run ${run}/${RUNS}: Postfix ${result.postfix?.perSecond.toFixed(0) ?? '-'} msg/s; ${databases.map((d) => `${d} ${result.mailstead[d]!.perSecond.toFixed(0)} msg/s`).join('; ')}`,
    );
  }
  return { databases, runs, skipped: postfix.isReady ? null : postfix.reason, load: { before, after: os.loadavg() } };
}

const spread = (values: number[], digits = 0) => {
  const [min, max] = [Math.min(...values), Math.max(...values)];
  return min.toFixed(digits) === max.toFixed(digits)
    ? min.toFixed(digits)
    : `${min.toFixed(digits)}-${max.toFixed(digits)}`;
};

export function printVersusPostfixResults({ databases, runs, skipped, load }: VersusResult) {
  const loadText = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
  console.log(
    `\n${MESSAGES} messages of 10 KB each way (after ${WARMUP} to warm up), end to end into a loopback sink, ${runs.length} run(s); load average before ${loadText(load.before)}, after ${loadText(load.after)}`,
  );
  console.log(
    `Postfix: private instance, ${SESSIONS} pooled SMTP sessions injecting pre-built messages, no DKIM. Mailstead: web+worker, ${RECIPIENTS_PER_REQUEST}-recipient API requests offered at ${ACCEPT_RATE} recipients/s (open loop), DKIM on\n`,
  );
  console.log(
    '| database   | Postfix (msg/s) | Mailstead (msg/s) | ratio       | target | met in  | acceptance p50 (ms) | p99 (ms)    | CPU ms/msg: Postfix | Mailstead (+PostgreSQL) |',
  );
  console.log(
    '|------------|-----------------|-------------------|-------------|--------|---------|---------------------|-------------|---------------------|-------------------------|',
  );
  for (const database of databases) {
    const mailstead = runs.map((run) => run.mailstead[database]!);
    const postfix = runs.map((run) => run.postfix).filter((value): value is PostfixRun => value !== null);
    const ratios = skipped ? [] : runs.map((run) => run.mailstead[database]!.perSecond / run.postfix!.perSecond);
    const met = ratios.filter((ratio) => ratio >= TARGETS[database]).length;
    const mailsteadCpu =
      spread(
        mailstead.map((run) => run.cpuMsPerMessage),
        2,
      ) +
      (database === 'PostgreSQL'
        ? ` (+${spread(
            mailstead.map((run) => run.databaseCpuMsPerMessage),
            2,
          )})`
        : '');
    const cells = [
      database.padEnd(10),
      (postfix.length ? spread(postfix.map((run) => run.perSecond)) : '-').padStart(15),
      spread(mailstead.map((run) => run.perSecond)).padStart(17),
      (ratios.length ? `${spread(ratios, 2)}x` : '-').padStart(11),
      `${TARGETS[database]}x`.padStart(6),
      (ratios.length ? `${met}/${ratios.length}` : '-').padStart(7),
      spread(mailstead.map((run) => run.p50)).padStart(19),
      spread(mailstead.map((run) => run.p99)).padStart(11),
      (postfix.length
        ? spread(
            postfix.map((run) => run.cpuMsPerMessage),
            2,
          )
        : '-'
      ).padStart(19),
      mailsteadCpu.padStart(23),
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
  console.log(
    '\nratio: Mailstead over the Postfix run just before it; min-max over the runs. CPU: the Postfix master and its daemons; the Mailstead process (and its PostgreSQL backends); injector and sink excluded',
  );
}
