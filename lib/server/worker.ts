import { hostname } from 'node:os';
import { unsafeRecheckDomains } from '@/lib/core/domains/recheck-domains';
import { unsafePurgeIdempotencyRecords } from '@/lib/core/idempotency/purge-idempotency-records';
import { unsafePurgeExpiredMessages } from '@/lib/core/messages/purge-expired-messages';
import { unsafeFoldCounterRows } from '@/lib/core/stats/fold-counter-rows';
import { unsafeVacuumEmbeddedDatabase } from '@/lib/core/system/vacuum-embedded-database';
import { unsafePurgeExpiredWebhookDeliveries } from '@/lib/core/webhooks/purge-expired-webhook-deliveries';
import { claimDueJobs, completeJob, ensurePeriodicJob, failJob, type JobRow } from '@/lib/core/jobs/job-queue';
import type { Registry } from './registry';

type JobHandler = (registry: Registry, job: JobRow) => Promise<void>;

/** What each job kind does. Later capabilities add their kinds here. */
const HANDLERS: Record<string, JobHandler> = {
  'purge-idempotency-records': async ({ db, now }) => {
    await unsafePurgeIdempotencyRecords(db, now());
  },
  'purge-expired-messages': async ({ db, now }) => {
    await unsafePurgeExpiredMessages(db, now());
  },
  'recheck-domains': async (registry) => {
    await unsafeRecheckDomains(registry);
  },
  'purge-webhook-deliveries': async ({ db, now }) => {
    await unsafePurgeExpiredWebhookDeliveries(db, now());
  },
  'fold-counter-rows': async ({ db, now }) => {
    await unsafeFoldCounterRows(db, now());
  },
  'vacuum-embedded-database': async ({ db }) => {
    await unsafeVacuumEmbeddedDatabase(db, { analyze: false });
  },
  'analyze-embedded-database': async ({ db }) => {
    await unsafeVacuumEmbeddedDatabase(db, { analyze: true });
  },
};

// VACUUM holds PGlite's thread while it runs, so often enough that each has little to do: measured,
// 15-20 ms with nothing to clean, and 3 ms more per 1,000 messages queued and delivered since the
// last (a minute at 1,600 messages a second: about 300 ms). ANALYZE samples whole tables, and plans
// change slowly (random_page_cost keeps the claim's plan right without it, pglite-options.ts).
const EMBEDDED_VACUUM_SECONDS = 60;
const EMBEDDED_ANALYZE_SECONDS = 3600;

/** Periodic work every deployment runs, registered idempotently at start. */
const periodicJobs = (registry: Registry) => [
  { name: 'purge-idempotency-records', kind: 'purge-idempotency-records', intervalSeconds: 3600 },
  { name: 'recheck-domains', kind: 'recheck-domains', intervalSeconds: registry.config.dns.recheckIntervalSeconds },
  { name: 'purge-expired-messages', kind: 'purge-expired-messages', intervalSeconds: registry.config.retentionPurgeIntervalSeconds },
  { name: 'purge-webhook-deliveries', kind: 'purge-webhook-deliveries', intervalSeconds: registry.config.retentionPurgeIntervalSeconds },
  // Statistics counter rows of ended hours and days (lib/core/stats/counter-writers.ts), within 10 minutes.
  { name: 'fold-counter-rows', kind: 'fold-counter-rows', intervalSeconds: 600 },
  // PGlite has no autovacuum (vacuum-embedded-database.ts); PostgreSQL's does this itself.
  ...(registry.database.kind === 'pglite'
    ? [
        { name: 'vacuum-embedded-database', kind: 'vacuum-embedded-database', intervalSeconds: EMBEDDED_VACUUM_SECONDS },
        { name: 'analyze-embedded-database', kind: 'analyze-embedded-database', intervalSeconds: EMBEDDED_ANALYZE_SECONDS },
      ]
    : []),
];

const JOB_LEASE_MS = 5 * 60 * 1000;

/** The worker role's scheduler: claims due jobs from the jobs table and runs them. */
export async function startWorker(registry: Registry): Promise<{ stop: () => Promise<void> }> {
  for (const job of periodicJobs(registry)) await ensurePeriodicJob(registry.db, job);
  const workerId = `${hostname()}:${process.pid}`;
  let isStopping = false;
  let running: Promise<void> = Promise.resolve();

  const tick = async () => {
    const claimed = await claimDueJobs(registry.db, { workerId, leaseMs: JOB_LEASE_MS, limit: 10, now: registry.now() });
    for (const job of claimed) {
      const handler = HANDLERS[job.kind];
      try {
        if (!handler) throw new Error(`no handler for job kind "${job.kind}"`);
        await handler(registry, job);
        await completeJob(registry.db, job, registry.now());
      } catch (error) {
        registry.logger.warn({ job: job.kind, err: (error as Error).message }, 'job failed');
        await failJob(registry.db, job, (error as Error).message, registry.now());
      }
    }
  };

  const timer = setInterval(() => {
    if (isStopping) return;
    running = running.then(tick).catch((error) => registry.logger.error({ err: error }, 'job poll failed'));
  }, registry.config.jobPollMs);

  return {
    async stop() {
      isStopping = true;
      clearInterval(timer);
      await running;
    },
  };
}
