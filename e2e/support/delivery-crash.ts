import { randomBytes } from 'node:crypto';
import { createAccountWithKey } from './cli';
import { ApiClient } from './client';
import { CountingMx } from './counting-mx';
import { createScratchDatabase } from './postgres';
import { routeDomainToLoopback, verifiedDomain } from './sending';
import { freePort, startServer, type ServerHandle } from './server';

export type CrashRound = {
  round: number;
  /** Distinct messages the MX had accepted when the server was killed. */
  deliveredAtKill: number;
  /** SMTP connections open at the MX at that moment (the bound on duplicates). */
  connectionsAtKill: number;
  /** Message-IDs accepted more than once. */
  duplicates: number;
  lost: number;
  /** From the restart (process spawned) until the API answers, and until every message is delivered. */
  readyMs: number;
  drainMs: number;
  /** The longest wait for the next delivery after the restart answered: a stranded lease would make it minutes. */
  longestPauseMs: number;
  /** How long the rest would take after the restart at the pace of the killed process (a busy machine slows both). */
  expectedDrainMs: number;
};

const RECIPIENTS_PER_REQUEST = 100;
const NOT_DELIVERED = 'Received,Deferred,Bounced,Failed,Suppressed';

/**
 * The delivery crash scenario, shared by e2e/process/delivery-crash.spec.ts and `npm run bench:crash`:
 * each round sends `messages` (a multiple of 100, over 600) to a counting MX, kills the server with
 * SIGKILL after 200-600 were delivered, restarts it on the same data (directory or PostgreSQL database) and waits until
 * every message of the round is delivered. The run's DNS server must be reachable (MAILSTEAD_TEST_DNS
 * and MAILSTEAD_TEST_DNS_CONTROL). The lease stays at its default (300 s): a message stranded by the
 * dead process would show as a pause of minutes.
 */
export async function runDeliveryCrash(options: {
  rounds: number;
  messages: number;
  connections: number;
  postgresAdminUrl: string | null;
  log?: (line: string) => void;
}): Promise<{ rounds: CrashRound[]; cleanup: () => Promise<void> }> {
  const log = options.log ?? (() => {});
  const cleanups: (() => Promise<unknown>)[] = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step().catch(() => {});
  };
  try {
    const mx = await new CountingMx().start();
    cleanups.push(() => mx.stop());
    const env: Record<string, string> = {
      ALLOW_PRIVATE_NETWORKS: 'true',
      SMTP_DELIVERY_PORT: String(mx.port),
      DELIVERY_CONNECTIONS: String(options.connections),
      DELIVERY_POLL_MS: '100',
      // A loaded machine may time out a lookup or a connection: retried within seconds, such a
      // deferral is not mistaken for a stranded lease.
      DNS_TIMEOUT_MS: '5000',
      RETRY_SCHEDULE: '5',
      LOG_LEVEL: 'warn',
    };
    if (options.postgresAdminUrl) {
      const scratch = await createScratchDatabase(options.postgresAdminUrl, 'mailstead_crash');
      cleanups.push(scratch.drop);
      Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: randomBytes(32).toString('base64url') });
    }
    let server: ServerHandle = await startServer({ env });
    cleanups.push(() => server.stop());
    const account = await createAccountWithKey(server.env, 'Crash');
    let api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    const stamp = `crash-${Date.now().toString(36)}`;
    const sender = `${stamp}.example.com`;
    const rcptDomain = `to-${stamp}.example`;
    await verifiedDomain(api, sender);
    await routeDomainToLoopback(rcptDomain);

    const rounds: CrashRound[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      const prefix = `r${round}-`;
      const ofRound = (recipient: string) => recipient.startsWith(prefix);
      const total = options.messages;
      for (let request = 0; request < total / RECIPIENTS_PER_REQUEST; request++) {
        const sent = await api.post(api.account('/messages'), {
          from: { email: `crash@${sender}` },
          recipients: Array.from({ length: RECIPIENTS_PER_REQUEST }, (_, index) => ({
            email: `${prefix}${request}-${index}@${rcptDomain}`,
          })),
          subject: `Crash round ${round}`,
          text_content: 'a small body',
          tags: [`crash-${round}`],
        });
        if (sent.status !== 202) throw new Error(`send failed: ${sent.status} ${sent.text.slice(0, 300)}`);
      }

      const killAfter = 200 + Math.floor(Math.random() * 400);
      await waitFor(
        () => mx.count(ofRound).distinct >= killAfter,
        120_000,
        `round ${round}: ${killAfter} deliveries before the kill`,
      );
      server.process.kill('SIGKILL');
      const killedAt = Date.now();
      const connectionsAtKill = mx.openSessions.size;
      const deliveredAtKill = mx.count(ofRound).distinct;
      const pacePerMs = deliveredAtKill / Math.max(1, killedAt - Math.min(...mx.acceptedTimes(ofRound)));
      await server.exited;
      if (deliveredAtKill >= total) throw new Error(`round ${round}: everything was delivered before the kill`);

      const restartedAt = Date.now();
      server = await startServer({ dataDir: server.dataDir, env: { ...env, PORT: String(await freePort()) } });
      const readyMs = Date.now() - restartedAt;
      api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
      await waitFor(
        () => mx.count(ofRound).distinct >= total,
        300_000,
        `round ${round}: all ${total} messages at the MX`,
      );
      await waitFor(
        async () =>
          (
            await api.get(
              api.account(`/messages?tags=crash-${round}&status=${encodeURIComponent(NOT_DELIVERED)}&limit=1`),
            )
          ).body.data.length === 0,
        300_000,
        `round ${round}: every message delivered`,
        100,
      );
      const drainMs = Date.now() - restartedAt;
      const counted = mx.count(ofRound);
      const longestPauseMs = longestPause(mx.acceptedTimes(ofRound), restartedAt + readyMs);
      const expectedDrainMs = Math.round((total - deliveredAtKill) / pacePerMs);
      const result = {
        round,
        deliveredAtKill,
        connectionsAtKill,
        duplicates: counted.duplicated.length,
        lost: total - counted.distinct,
        readyMs,
        drainMs,
        longestPauseMs,
        expectedDrainMs,
      };
      log(
        `round ${round}: killed at ${deliveredAtKill}/${total} delivered (${connectionsAtKill} connections open), ${result.duplicates} duplicates, ${result.lost} lost; ` +
          `ready ${readyMs} ms and drained ${drainMs} ms after the restart (the rest at the earlier pace: ${expectedDrainMs} ms; longest pause ${longestPauseMs} ms)`,
      );
      rounds.push(result);
    }
    return { rounds, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** The longest time without a delivery from `from` to the last delivery. */
function longestPause(times: number[], from: number): number {
  let previous = from;
  let longest = 0;
  for (const at of times.filter((time) => time >= from).sort((a, b) => a - b)) {
    longest = Math.max(longest, at - previous);
    previous = at;
  }
  return longest;
}

async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  intervalMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
