import { and, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { messages, workers } from '@/lib/db/schema';
import { QUEUED_STATES } from './count-queued-messages';
import { isWorkerDead, type Observer, type WorkerSighting } from './worker-liveness';

const FREE_LEASE = { leaseUntil: null, lockedBy: null };

/**
 * Leased rows, through the due index (locked_by has none, so that a claim updates in place): only
 * rows in the queue's states are ever claimed, so only they hold leases.
 */
export const isLeased = and(inArray(messages.status, QUEUED_STATES), isNotNull(messages.lockedBy))!;

/**
 * Frees the messages held by workers that are gone (see isWorkerDead), or by ids that no worker
 * registered, and forgets those workers: their messages are due again now instead of after the lease.
 * Unsafe: it reads and writes every account's messages by design, since leases belong to processes.
 */
export async function unsafeReclaimDeadLeases(db: Db, observer: Observer): Promise<{ deadWorkers: string[]; freed: number }> {
  // Holders are read before workers: a worker registers before it claims, so a holder that the later
  // read does not list is gone for good, not just registered.
  const holders = await db.selectDistinct({ id: messages.lockedBy }).from(messages).where(isLeased);
  const sightings: WorkerSighting[] = await db
    .select({ id: workers.id, hostname: workers.hostname, pid: workers.pid, silentMs: sql<number>`(extract(epoch from now() - ${workers.heartbeatAt}) * 1000)::float8` })
    .from(workers);
  const deadWorkers = sightings.filter((worker) => isWorkerDead(worker, observer)).map((worker) => worker.id);
  const registered = new Set(sightings.map((worker) => worker.id));
  const gone = [...new Set([...deadWorkers, ...holders.map((holder) => holder.id!).filter((id) => !registered.has(id))])];
  if (deadWorkers.length > 0) await db.delete(workers).where(inArray(workers.id, deadWorkers));
  if (gone.length === 0) return { deadWorkers, freed: 0 };
  const freed = await db.update(messages).set(FREE_LEASE).where(and(isLeased, inArray(messages.lockedBy, gone))).returning({ id: messages.id });
  return { deadWorkers, freed: freed.length };
}

/**
 * Frees every lease and forgets every other worker: for the embedded database, which one process
 * opens at a time, so at start whatever holds a lease is dead. Unsafe: every account's messages.
 */
export async function unsafeReclaimAllLeases(db: Db, workerId: string): Promise<{ freed: number }> {
  await db.delete(workers).where(sql`${workers.id} <> ${workerId}`);
  const freed = await db.update(messages).set(FREE_LEASE).where(isLeased).returning({ id: messages.id });
  return { freed: freed.length };
}
