import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { createAccountWithKey } from '../support/cli';
import { ApiClient, type ApiResponse } from '../support/client';
import { CountingMx } from '../support/counting-mx';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { routeDomainToLoopback, verifiedDomain } from '../support/sending';
import { freePort, startServer, type ServerHandle } from '../support/server';

/**
 * WORKERS=2 on PostgreSQL: one `mailstead start`, a primary, two serving processes sharing the
 * listening sockets and two delivering ones. Parallel sends with repeated Idempotency-Keys, a SIGKILL of one worker while
 * deliveries are in flight, the primary's restart of it, and (with Redis) one rate limit for both.
 */
const KEYS = 40;
const COPIES_PER_KEY = 2;
const RECIPIENTS_PER_KEY = 3;
const KEYLESS_REQUESTS = 20;
const RECIPIENTS_PER_KEYLESS = 4;
const MESSAGES = KEYS * RECIPIENTS_PER_KEY + KEYLESS_REQUESTS * RECIPIENTS_PER_KEYLESS;
const CONNECTIONS = 8;
const BURST = 200;

/** `run` over `items`, `width` at a time, results in order. */
async function inParallel<T, R>(items: T[], width: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await run(items[index]);
      }
    }),
  );
  return results;
}

/** The workers that said they were ready, in that order, with their group (lib/server/plan-processes.ts). */
const readyWorkers = (server: ServerHandle): { pid: number; group: string; roles: string[] }[] =>
  readFileSync(server.logFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"msg":"worker ready"'))
    .map((line) => JSON.parse(line))
    .map((entry) => ({ pid: entry.workerPid, group: entry.group, roles: entry.roles }));
const pidsOf = (workers: { pid: number; group: string }[], group: string) =>
  workers.filter((worker) => worker.group === group).map((worker) => worker.pid);

/** A process's nice value (field 19 of /proc/<pid>/stat: the main thread's; Linux keeps one per thread). */
const niceOf = (pid: number, thread = pid) =>
  Number(readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
/**
 * The nice values of all of a process's threads (the GC's, the mail threads...), distinct. A thread
 * that ends between the listing and its read is left out: a process just started still has threads
 * coming and going, and the read of a gone one threw (on CI, right after a worker was restarted).
 */
const threadNicesOf = (pid: number) => [
  ...new Set(
    readdirSync(`/proc/${pid}/task`).flatMap((thread) => {
      try {
        return [niceOf(pid, Number(thread))];
      } catch {
        return [];
      }
    }),
  ),
];

test('WORKERS=2: parallel sends keep idempotency, every message is delivered once, a killed worker is restarted and loses nothing', async () => {
  const adminUrl = postgresAdminUrl();
  test.skip(
    !adminUrl,
    'needs the PostgreSQL run (MAILSTEAD_TEST_POSTGRES_URL): the embedded database allows one process',
  );
  // Four minutes sufficed alone on the machine; on a host loaded by parallel builds it once did not.
  test.setTimeout(360_000);
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const scratch = await createScratchDatabase(adminUrl!, 'mailstead_workers');
    cleanups.push(scratch.drop);
    // Each DATA waits for its reply, so that deliveries are still in flight when a worker is killed.
    const mx = await new CountingMx({ replyDelayMs: 150 }).start();
    cleanups.push(() => mx.stop());
    const redisUrl = process.env.MAILSTEAD_TEST_REDIS_URL ?? '';
    const metricsPort = await freePort();
    const server = await startServer({
      env: {
        DATABASE_URL: scratch.url,
        MAILSTEAD_SECRET: randomBytes(32).toString('base64url'),
        REDIS_URL: redisUrl,
        WORKERS: '2',
        METRICS_PORT: String(metricsPort),
        ALLOW_PRIVATE_NETWORKS: 'true',
        SMTP_DELIVERY_PORT: String(mx.port),
        DELIVERY_CONNECTIONS: String(CONNECTIONS),
        DELIVERY_POLL_MS: '100',
        RETRY_SCHEDULE: '5',
        RATE_LIMIT_BURST: String(BURST),
        RATE_LIMIT_PER_SECOND: '1',
      },
    });
    cleanups.push(() => server.stop());
    // Two groups of WORKERS each: two serving processes (the roles but worker) and two delivering ones
    // (worker), these at a lower CPU priority, so that requests get the cores first.
    await expect.poll(() => readyWorkers(server).length, { timeout: 60_000 }).toBe(4);
    const first = readyWorkers(server);
    const serving = pidsOf(first, 'serving');
    const firstPids = pidsOf(first, 'delivering');
    expect(serving).toHaveLength(2);
    expect(firstPids).toHaveLength(2);
    // ROLES=web,worker (the test servers'): web in the one group, worker in the other.
    expect(first.map((worker) => `${worker.group}: ${worker.roles.join(',')}`).sort()).toEqual([
      'delivering: worker',
      'delivering: worker',
      'serving: web',
      'serving: web',
    ]);
    for (const pid of serving)
      expect(threadNicesOf(pid), `every thread of serving process ${pid}`).toEqual([niceOf(process.pid)]);
    const lowered = Math.min(19, niceOf(process.pid) + 10);
    for (const pid of firstPids)
      expect(threadNicesOf(pid), `every thread of delivering process ${pid}`).toEqual([lowered]);
    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    cleanups.push(() => db.end());
    // Only the delivering processes register as delivery workers.
    const livePids = async () =>
      (await db.query('select pid from workers order by pid')).rows.map((row) => row.pid as number);
    await expect.poll(livePids, { timeout: 30_000 }).toEqual([...firstPids].sort((a, b) => a - b));

    const account = await createAccountWithKey(server.env, 'Workers');
    const api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    const stamp = `wk-${Date.now().toString(36)}`;
    const sender = `${stamp}.example.com`;
    const rcptDomain = `to-${stamp}.example`;
    await verifiedDomain(api, sender);
    await routeDomainToLoopback(rcptDomain);
    // Nothing is delivered until every send is answered: the kill below lands mid-delivery however slow the machine.
    mx.hold();

    const send = (recipients: string[], key: string | null): Promise<ApiResponse> =>
      api.post(
        api.account('/messages'),
        {
          from: { email: `wk@${sender}` },
          recipients: recipients.map((email) => ({ email })),
          subject: 'Workers',
          text_content: 'x',
        },
        { headers: key ? { 'Idempotency-Key': key } : {} },
      );
    // A copy that meets its twin in progress waits as told (409, Retry-After) and asks again.
    const sendUntilAnswered = async (recipients: string[], key: string): Promise<ApiResponse> => {
      for (;;) {
        const response = await send(recipients, key);
        if (response.status !== 409) return response;
        await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
      }
    };
    const keyed = Array.from({ length: KEYS }, (_, key) => ({
      key: `${stamp}-key-${key}`,
      recipients: Array.from({ length: RECIPIENTS_PER_KEY }, (_, index) => `k${key}-${index}@${rcptDomain}`),
    }));
    const keyless = Array.from({ length: KEYLESS_REQUESTS }, (_, request) =>
      Array.from({ length: RECIPIENTS_PER_KEYLESS }, (_, index) => `n${request}-${index}@${rcptDomain}`),
    );
    // Copies of one key go out at the same moment; requests are 12 at a time so that a busy machine
    // is not asked for a hundred TLS handshakes at once.
    const [keyedAnswers, keylessAnswers] = await Promise.all([
      inParallel(keyed, 8, ({ key, recipients }) =>
        Promise.all(Array.from({ length: COPIES_PER_KEY }, () => sendUntilAnswered(recipients, key))),
      ),
      inParallel(keyless, 4, (recipients) => send(recipients, null)),
    ]);

    for (const copies of keyedAnswers) {
      expect(copies.map((copy) => copy.status)).toEqual(Array(COPIES_PER_KEY).fill(202));
      // One send per key: every copy answers with the same messages, all but one as a replay.
      expect(new Set(copies.map((copy) => copy.text)).size).toBe(1);
      expect(copies.filter((copy) => copy.headers.get('idempotent-replayed') === 'true')).toHaveLength(
        COPIES_PER_KEY - 1,
      );
    }
    expect(keylessAnswers.map((answer) => answer.status)).toEqual(Array(KEYLESS_REQUESTS).fill(202));
    const accepted = [...keyedAnswers.map((copies) => copies[0]), ...keylessAnswers].flatMap((answer) =>
      answer.body.data.map((message: { id: string }) => message.id),
    );
    expect(new Set(accepted).size).toBe(MESSAGES);
    const ofRun = (recipient: string) => recipient.endsWith(`@${rcptDomain}`);
    const { rows: stored } = await db.query('select count(*)::int as n from messages where recipient like $1', [
      `%@${rcptDomain}`,
    ]);
    expect(stored[0].n).toBe(MESSAGES);

    // SIGKILL one worker in the middle of delivery.
    mx.release();
    await expect.poll(() => mx.count(ofRun).distinct, { timeout: 60_000, intervals: [20] }).toBeGreaterThanOrEqual(30);
    const victim = firstPids[0];
    process.kill(victim, 'SIGKILL');
    const deliveredAtKill = mx.count(ofRun).distinct;
    expect(deliveredAtKill, 'everything was delivered before the kill').toBeLessThan(MESSAGES);

    // The primary starts a new worker; the survivor (or the new one) frees what the victim held.
    await expect.poll(() => readyWorkers(server).length, { timeout: 60_000 }).toBe(5);
    const restarted = readyWorkers(server)[4];
    expect(restarted.group, "the replacement is of the killed worker's group").toBe('delivering');
    const replacement = restarted.pid;
    expect(firstPids).not.toContain(replacement);
    expect(threadNicesOf(replacement)).toEqual([lowered]);
    await expect.poll(livePids, { timeout: 30_000 }).toEqual([firstPids[1], replacement].sort((a, b) => a - b));
    expect(server.process.exitCode).toBeNull();

    await expect.poll(() => mx.count(ofRun).distinct, { timeout: 90_000, intervals: [100] }).toBe(MESSAGES);
    await expect
      .poll(
        async () =>
          (
            await db.query(`select status, count(*)::int as n from messages where recipient like $1 group by status`, [
              `%@${rcptDomain}`,
            ])
          ).rows,
        { timeout: 60_000 },
      )
      .toEqual([{ status: 'delivered', n: MESSAGES }]);
    const copies = mx.copiesByRecipient(ofRun);
    const expected = [...keyed.flatMap(({ recipients }) => recipients), ...keyless.flat()].sort();
    expect([...copies.keys()].sort()).toEqual(expected);
    // Only a message whose DATA was answered while the victim died can come twice: at most one per connection it had open.
    const duplicates = [...copies.values()].reduce((sum, count) => sum + count - 1, 0);
    console.log(
      `killed worker ${victim} at ${deliveredAtKill}/${MESSAGES} delivered; replacement ${replacement}; ${duplicates} duplicates`,
    );
    expect(duplicates).toBeLessThanOrEqual(CONNECTIONS);

    // The primary's operations port: every worker's delivery counters summed (the killed worker's
    // are gone with it, so at least what the survivor and the replacement delivered), both started.
    const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scrape.status).toBe(200);
    const exposition = await scrape.text();
    const delivered = Number(/^mailstead_deliveries_total\{outcome="delivered"\} (\d+)/m.exec(exposition)?.[1] ?? 0);
    expect(delivered).toBeGreaterThanOrEqual(MESSAGES - deliveredAtKill);
    expect(delivered).toBeLessThanOrEqual(MESSAGES + CONNECTIONS);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/readyz`)).status).toBe(200);

    if (redisUrl) {
      // One bucket in Redis for both workers: a burst of pings from another account passes BURST
      // times (plus the refill of 1/s), not BURST per process.
      const probe = await createAccountWithKey(server.env, 'Rate probe');
      const probeApi = new ApiClient(server.baseUrl, server.dataDir, probe.apiKey, probe.accountId);
      const startedAt = Date.now();
      const statuses: number[] = [];
      await inParallel(Array.from({ length: 300 }), 16, async () =>
        statuses.push((await probeApi.get('/v2/ping', { checkContract: false })).status),
      );
      const refill = Math.ceil((Date.now() - startedAt) / 1000) + 1;
      const passed = statuses.filter((status) => status === 200).length;
      expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
      expect(passed).toBeGreaterThanOrEqual(BURST);
      expect(passed).toBeLessThanOrEqual(BURST + refill);
    }

    expect(await server.stop('SIGTERM')).toBe(0);
    for (const pid of [...serving, firstPids[1], replacement]) expect(() => process.kill(pid, 0)).toThrow();
  } finally {
    // Each step bounded: a step that hangs (the MX waiting on connections) hid the failure that
    // led here behind the test's timeout.
    for (const step of cleanups.reverse())
      await Promise.race([step().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 30_000))]);
  }
});

test('WORKERS=2: a worker that cannot start (its port is taken) stops the primary with exit 1', async () => {
  const adminUrl = postgresAdminUrl();
  test.skip(
    !adminUrl,
    'needs the PostgreSQL run (MAILSTEAD_TEST_POSTGRES_URL): the embedded database allows one process',
  );
  test.setTimeout(120_000);
  const scratch = await createScratchDatabase(adminUrl!, 'mailstead_workers');
  const port = await freePort();
  const taken = net.createServer().listen(port);
  try {
    const server = await startServer({
      env: {
        DATABASE_URL: scratch.url,
        MAILSTEAD_SECRET: randomBytes(32).toString('base64url'),
        WORKERS: '2',
        PORT: String(port),
      },
      waitForReady: false,
    });
    expect(await server.exited).toBe(1);
    const log = readFileSync(server.logFile, 'utf8');
    expect(log).toMatch(/EADDRINUSE/);
    expect(log).toMatch(/"msg":"a worker failed to start"/);
  } finally {
    taken.close();
    await scratch.drop();
  }
});
