import { unsafePurgeExpiredAuditEvents } from '@/lib/core/audit/purge-expired-audit-events';
import type { Services } from '@/lib/core/context';
import { unsafePurgeExpiredContactExports } from '@/lib/core/contact-exports/purge-expired-contact-exports';
import { exportTtlSeconds } from '@/lib/core/contact-exports/schemas';
import { unsafeRecheckDomains } from '@/lib/core/domains/recheck-domains';
import { unsafePurgeIdempotencyRecords } from '@/lib/core/idempotency/purge-idempotency-records';
import { claimDueJobs, completeJob, ensurePeriodicJob, failJob, type JobRow } from '@/lib/core/jobs/job-queue';
import { unsafePurgeExpiredMessages } from '@/lib/core/messages/purge-expired-messages';
import { unsafePurgeSpentResetLinks } from '@/lib/core/passwords/purge-spent-reset-links';
import { unsafePurgeNotificationSends } from '@/lib/core/notifications/purge-notification-sends';
import { unsafeFoldCounterRows } from '@/lib/core/statistics/fold-counter-rows';
import { unsafeVacuumEmbeddedDatabase } from '@/lib/core/system/vacuum-embedded-database';
import { unsafePurgeEndedSessions } from '@/lib/core/user-sessions/purge-ended-sessions';
import { unsafePurgeExpiredWebhookDeliveries } from '@/lib/core/webhooks/purge-expired-webhook-deliveries';
import { anyLoop, type LoopRow, type WorkerContext, type WorkerSettings } from './worker-context';

type JobHandler = (services: Services, job: JobRow) => Promise<void>;

/** What each job kind does. Later capabilities add their kinds here. */
const HANDLERS: Record<string, JobHandler> = {
  'purge-idempotency-records': async ({ db, now }) => {
    await unsafePurgeIdempotencyRecords(db, now());
  },
  'purge-expired-messages': async ({ db, now }) => {
    await unsafePurgeExpiredMessages(db, now());
  },
  'purge-audit-events': async ({ db, now, config }) => {
    await unsafePurgeExpiredAuditEvents(db, now(), config.auditRetentionDays);
  },
  'recheck-domains': async (services) => {
    await unsafeRecheckDomains(services);
  },
  'purge-webhook-deliveries': async ({ db, now }) => {
    await unsafePurgeExpiredWebhookDeliveries(db, now());
  },
  'purge-ended-sessions': async ({ db, now }) => {
    await unsafePurgeEndedSessions(db, now());
    await unsafePurgeSpentResetLinks(db, now());
  },
  'purge-notification-sends': async ({ db, now }) => {
    await unsafePurgeNotificationSends(db, now());
  },
  'purge-contact-exports': async (services) => {
    await unsafePurgeExpiredContactExports(services, services.now());
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
const periodicJobs = ({ services, database }: WorkerContext, settings: WorkerSettings) => [
  { name: 'purge-idempotency-records', kind: 'purge-idempotency-records', intervalSeconds: 3600 },
  { name: 'recheck-domains', kind: 'recheck-domains', intervalSeconds: services.config.dns.recheckIntervalSeconds },
  {
    name: 'purge-expired-messages',
    kind: 'purge-expired-messages',
    intervalSeconds: settings.retentionPurgeIntervalSeconds,
  },
  {
    name: 'purge-webhook-deliveries',
    kind: 'purge-webhook-deliveries',
    intervalSeconds: settings.retentionPurgeIntervalSeconds,
  },
  { name: 'purge-audit-events', kind: 'purge-audit-events', intervalSeconds: settings.retentionPurgeIntervalSeconds },
  // Dashboard sessions ended long ago and spent password reset links.
  { name: 'purge-ended-sessions', kind: 'purge-ended-sessions', intervalSeconds: 3600 },
  // The once-an-hour marks of notifications mailed, a day on.
  { name: 'purge-notification-sends', kind: 'purge-notification-sends', intervalSeconds: 3600 },
  // Contact export files 24 hours after their export finished (the contract), within 10 minutes
  // (sooner with a shorter CONTACT_EXPORT_TTL_SECONDS).
  {
    name: 'purge-contact-exports',
    kind: 'purge-contact-exports',
    intervalSeconds: Math.min(600, exportTtlSeconds(services.config)),
  },
  // Statistics counter rows of ended hours and days (lib/core/statistics/counter-writers.ts), within 10 minutes.
  { name: 'fold-counter-rows', kind: 'fold-counter-rows', intervalSeconds: 600 },
  // PGlite has no autovacuum (vacuum-embedded-database.ts); PostgreSQL's does this itself.
  ...(database === 'pglite'
    ? [
        {
          name: 'vacuum-embedded-database',
          kind: 'vacuum-embedded-database',
          intervalSeconds: EMBEDDED_VACUUM_SECONDS,
        },
        {
          name: 'analyze-embedded-database',
          kind: 'analyze-embedded-database',
          intervalSeconds: EMBEDDED_ANALYZE_SECONDS,
        },
      ]
    : []),
];

const JOB_LEASE_MS = 5 * 60 * 1000;

/** The scheduler: claims due jobs from the jobs table, one at a time, and runs each by its kind's handler. */
export const periodicJobLoop = {
  name: 'jobs',
  define: async (worker: WorkerContext, settings: WorkerSettings) => {
    const { services, workerId } = worker;
    const { db, logger } = services;
    for (const job of periodicJobs(worker, settings)) await ensurePeriodicJob(db, job);
    return anyLoop<JobRow>({
      name: 'jobs',
      capacity: 1,
      pollMs: settings.jobPollMs,
      claim: (free) => claimDueJobs(db, { workerId, leaseMs: JOB_LEASE_MS, limit: free, now: services.now() }),
      async run(job) {
        const handler = HANDLERS[job.kind];
        if (!handler) throw new Error(`no handler for job kind "${job.kind}"`);
        await handler(services, job);
      },
      async settle(job, error) {
        if (error === null) return completeJob(db, job, services.now());
        logger.warn({ job: job.kind, err: (error as Error).message }, 'job failed');
        await failJob(db, job, (error as Error).message, services.now());
      },
    });
  },
} satisfies LoopRow;
