import { collectDefaultMetrics, Gauge } from 'prom-client';
import type { Db } from '@/lib/db/client';
import { unsafeCountQueuedMessages, QUEUED_STATES, type QueueDepth } from '@/lib/mail/count-queued-messages';
import { metricsRegistry } from '@/lib/shared/metrics';
import { unsafeCountWebhookBacklog, type WebhookBacklog } from '@/lib/webhooks/count-webhook-backlog';
import type { Logger } from './logger';

/** What a scrape reads from the process: the database handle and its pool. */
export type ScrapeSource = {
  db: Db;
  poolUse: () => { total: number; idle: number; waiting: number } | null;
  now: () => Date;
  logger: Logger;
  timeoutMs: number;
};

type Snapshot = { queue: QueueDepth; backlog: WebhookBacklog; pingSeconds: number };

// Scrapes within this window share one reading: several scrapers (or a short interval) cost one query set.
const SNAPSHOT_MAX_AGE_MS = 5000;

let source: ScrapeSource | null = null;
let snapshot: { at: number; reading: Promise<Snapshot | null> } | null = null;

/** Reads the database once per window; null when it did not answer in time (mailstead_database_up 0). */
function readSnapshot(from: ScrapeSource): Promise<Snapshot | null> {
  if (snapshot && Date.now() - snapshot.at < SNAPSHOT_MAX_AGE_MS) return snapshot.reading;
  const reading = (async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>(
      (_, reject) =>
        (timer = setTimeout(() => reject(new Error(`no answer within ${from.timeoutMs} ms`)), from.timeoutMs)),
    );
    try {
      const started = performance.now();
      // Sequential: on PGlite every statement waits its turn anyway, and the first times that wait.
      const queue = await Promise.race([unsafeCountQueuedMessages(from.db, from.now()), timeout]);
      const pingSeconds = (performance.now() - started) / 1000;
      const backlog = await Promise.race([unsafeCountWebhookBacklog(from.db), timeout]);
      return { queue, backlog, pingSeconds };
    } catch (error) {
      from.logger.warn({ err: error }, 'metrics: the database did not answer the scrape');
      return null;
    } finally {
      clearTimeout(timer);
    }
  })();
  snapshot = { at: Date.now(), reading };
  return reading;
}

let isInstalled = false;

/**
 * The gauges read at scrape time (queue depth, webhook backlog, database), and prom-client's
 * default process metrics (CPU, memory, event-loop lag, GC). Installed once per process; a later
 * call only points the gauges at a new source.
 */
export function installScrapeMetrics(next: ScrapeSource): void {
  source = next;
  snapshot = null;
  if (isInstalled) return;
  isInstalled = true;
  collectDefaultMetrics({ register: metricsRegistry });

  new Gauge({
    name: 'mailstead_database_up',
    aggregator: 'max',
    help: "1 when the database answered the scrape's queries within READY_TIMEOUT_MS, else 0",
    registers: [metricsRegistry],
    async collect() {
      this.set(source && (await readSnapshot(source)) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'mailstead_database_query_seconds',
    aggregator: 'max',
    help: "How long the scrape's queue query took, waiting included (on PGlite, the wait behind other statements)",
    registers: [metricsRegistry],
    async collect() {
      const reading = source ? await readSnapshot(source) : null;
      if (reading) this.set(reading.pingSeconds);
      else this.reset();
    },
  });
  new Gauge({
    name: 'mailstead_queue_messages',
    aggregator: 'max',
    help: 'Messages waiting for delivery, by state (queued, deferred, scheduled); the same for every process on one database',
    labelNames: ['state'] as const,
    registers: [metricsRegistry],
    async collect() {
      const reading = source ? await readSnapshot(source) : null;
      this.reset();
      if (reading) for (const state of QUEUED_STATES) this.set({ state }, reading.queue.counts[state]);
    },
  });
  new Gauge({
    name: 'mailstead_queue_oldest_due_seconds',
    aggregator: 'max',
    help: 'How long the longest-waiting due message has been due (0 when none is due); a growing value means delivery is not keeping up',
    registers: [metricsRegistry],
    async collect() {
      const reading = source ? await readSnapshot(source) : null;
      if (!reading) return this.reset();
      const due = reading.queue.oldestDueAt;
      this.set(due ? Math.max(0, (Date.now() - due.getTime()) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'mailstead_webhook_backlog',
    aggregator: 'max',
    help: 'Webhook and route deliveries not yet done, by state (pending, retrying); the same for every process on one database',
    labelNames: ['state'] as const,
    registers: [metricsRegistry],
    async collect() {
      const reading = source ? await readSnapshot(source) : null;
      this.reset();
      if (reading) for (const state of ['pending', 'retrying'] as const) this.set({ state }, reading.backlog[state]);
    },
  });
  new Gauge({
    name: 'mailstead_db_pool_connections',
    help: 'PostgreSQL pool of this process: total and idle connections, and queries waiting for one (absent on PGlite)',
    labelNames: ['state'] as const,
    registers: [metricsRegistry],
    collect() {
      const use = source?.poolUse() ?? null;
      this.reset();
      if (use) for (const state of ['total', 'idle', 'waiting'] as const) this.set({ state }, use[state]);
    },
  });
}
