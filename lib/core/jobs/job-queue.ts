import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { jobs } from '@/lib/db/schema';

export type JobRow = typeof jobs.$inferSelect;

/** Registers (or re-times) a periodic job; one row per name, whatever the number of processes. */
export async function ensurePeriodicJob(
  db: Db,
  job: { name: string; kind: string; intervalSeconds: number; payload?: unknown },
) {
  await db
    .insert(jobs)
    .values({ name: job.name, kind: job.kind, intervalSeconds: job.intervalSeconds, payload: job.payload ?? {} })
    .onConflictDoUpdate({ target: jobs.name, set: { intervalSeconds: job.intervalSeconds, kind: job.kind } });
}

/**
 * Claims due jobs with a lease. SKIP LOCKED lets many workers claim side by side without waiting on
 * each other; a worker that dies leaves its jobs to be claimed again when the lease runs out.
 */
export async function claimDueJobs(
  db: Db,
  options: { workerId: string; leaseMs: number; limit: number; now: Date },
): Promise<JobRow[]> {
  const { now } = options;
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(lte(jobs.runAt, now), or(isNull(jobs.lockedUntil), lt(jobs.lockedUntil, now))))
    .orderBy(asc(jobs.runAt))
    .limit(options.limit)
    .for('update', { skipLocked: true });
  return db
    .update(jobs)
    .set({
      lockedUntil: new Date(now.getTime() + options.leaseMs),
      lockedBy: options.workerId,
      attempts: sql`${jobs.attempts} + 1`,
    })
    .where(inArray(jobs.id, due))
    .returning();
}

export async function completeJob(db: Db, job: JobRow, now: Date) {
  if (job.intervalSeconds) {
    await db
      .update(jobs)
      .set({
        runAt: new Date(now.getTime() + job.intervalSeconds * 1000),
        lockedUntil: null,
        lockedBy: null,
        attempts: 0,
        lastError: null,
        updatedAt: now,
      })
      .where(eq(jobs.id, job.id));
  } else {
    await db.delete(jobs).where(eq(jobs.id, job.id));
  }
}

export async function failJob(db: Db, job: JobRow, error: string, now: Date) {
  // Periodic jobs simply try again at their next interval; one-off jobs back off exponentially.
  const delayMs = job.intervalSeconds
    ? job.intervalSeconds * 1000
    : Math.min(3600_000, 1000 * 2 ** Math.min(job.attempts, 12));
  await db
    .update(jobs)
    .set({
      runAt: new Date(now.getTime() + delayMs),
      lockedUntil: null,
      lockedBy: null,
      lastError: error.slice(0, 2000),
      updatedAt: now,
    })
    .where(eq(jobs.id, job.id));
}
