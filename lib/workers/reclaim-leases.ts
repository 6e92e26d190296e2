import { and, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { contactExports, contactImports, messages, webhookDeliveries, workers } from '@/lib/db/schema';
import { QUEUED_STATES } from '@/lib/mail/count-queued-messages';
import { isWorkerDead, type Observer, type WorkerSighting } from './liveness';

/** A table of work leased to workers: `locked_by` names the holder, `lease_until` when it lapses. */
export type LeasedWork = {
  table: typeof messages | typeof webhookDeliveries | typeof contactImports | typeof contactExports;
  isLeased: SQL;
};

/**
 * Leased messages, through the due index (locked_by has none, so that a claim updates in place):
 * only rows in the queue's states are ever claimed, so only they hold leases.
 */
export const MESSAGE_LEASES: LeasedWork = {
  table: messages,
  isLeased: and(inArray(messages.status, QUEUED_STATES), isNotNull(messages.lockedBy))!,
};
export const WEBHOOK_DELIVERY_LEASES: LeasedWork = {
  table: webhookDeliveries,
  isLeased: isNotNull(webhookDeliveries.lockedBy),
};
export const CONTACT_IMPORT_LEASES: LeasedWork = {
  table: contactImports,
  isLeased: isNotNull(contactImports.lockedBy),
};

export const CONTACT_EXPORT_LEASES: LeasedWork = {
  table: contactExports,
  isLeased: isNotNull(contactExports.lockedBy),
};

const FREE_LEASE = { leaseUntil: null, lockedBy: null };

/**
 * Frees the work held by workers that are gone (see isWorkerDead), or by ids that no worker
 * registered, and forgets those workers: their work is due again now instead of after the lease.
 * Unsafe: it reads and writes every account's rows by design, since leases belong to processes.
 */
export async function unsafeReclaimDeadLeases(
  db: Db,
  observer: Observer,
  work: LeasedWork = MESSAGE_LEASES,
): Promise<{ deadWorkers: string[]; freed: number }> {
  const { table, isLeased } = work;
  // Holders are read before workers: a worker registers before it claims, so a holder that the later
  // read does not list is gone for good, not just registered.
  const holders = await db.selectDistinct({ id: table.lockedBy }).from(table).where(isLeased);
  const sightings: WorkerSighting[] = await db
    .select({
      id: workers.id,
      hostname: workers.hostname,
      pid: workers.pid,
      silentMs: sql<number>`(extract(epoch from now() - ${workers.heartbeatAt}) * 1000)::float8`,
    })
    .from(workers);
  const deadWorkers = sightings.filter((worker) => isWorkerDead(worker, observer)).map((worker) => worker.id);
  const registered = new Set(sightings.map((worker) => worker.id));
  const gone = [
    ...new Set([...deadWorkers, ...holders.map((holder) => holder.id!).filter((id) => !registered.has(id))]),
  ];
  if (deadWorkers.length > 0) await db.delete(workers).where(inArray(workers.id, deadWorkers));
  if (gone.length === 0) return { deadWorkers, freed: 0 };
  const freed = await db
    .update(table)
    .set(FREE_LEASE)
    .where(and(isLeased, inArray(table.lockedBy, gone)))
    .returning({ id: table.id });
  return { deadWorkers, freed: freed.length };
}

/**
 * Frees every lease and forgets every other worker: for the embedded database, which one process
 * opens at a time, so at start whatever holds a lease is dead. Unsafe: every account's messages.
 */
export async function unsafeReclaimAllLeases(db: Db, workerId: string): Promise<{ freed: number }> {
  await db.delete(workers).where(sql`${workers.id} <> ${workerId}`);
  return { freed: await unsafeReleaseAllLeases(db, MESSAGE_LEASES) };
}

/** Every lease of one kind of work, for the embedded database at start, where no other process can hold one. */
export async function unsafeReleaseAllLeases(db: Db, work: LeasedWork): Promise<number> {
  const freed = await db.update(work.table).set(FREE_LEASE).where(work.isLeased).returning({ id: work.table.id });
  return freed.length;
}

/** Hands back what this worker still holds when it stops: due again at once, here or elsewhere. */
export async function unsafeReleaseOwnLeases(db: Db, workerId: string, work: LeasedWork): Promise<void> {
  await db
    .update(work.table)
    .set(FREE_LEASE)
    .where(and(work.isLeased, sql`${work.table.lockedBy} = ${workerId}`));
}
