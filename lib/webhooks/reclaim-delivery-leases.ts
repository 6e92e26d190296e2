import { inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { webhookDeliveries, workers } from '@/lib/db/schema';
import { isWorkerDead, type Observer, type WorkerSighting } from '@/lib/mail/worker-liveness';

const FREE_LEASE = { leaseUntil: null, lockedBy: null };

/**
 * Frees the deliveries held by workers that are gone (lib/mail/worker-liveness.ts decides, with the
 * heartbeats the delivery worker writes under the same worker id), so that they are attempted again
 * now rather than when their lease runs out. Unsafe: every account's outbox, by design.
 */
export async function unsafeReclaimDeadDeliveryLeases(db: Db, observer: Observer): Promise<number> {
  // Holders are read before workers: a worker registers before it claims, so a holder the later read
  // does not list is gone for good.
  const holders = await db.selectDistinct({ id: webhookDeliveries.lockedBy }).from(webhookDeliveries).where(isNotNull(webhookDeliveries.lockedBy));
  if (holders.length === 0) return 0;
  const sightings: WorkerSighting[] = await db
    .select({ id: workers.id, hostname: workers.hostname, pid: workers.pid, silentMs: sql<number>`(extract(epoch from now() - ${workers.heartbeatAt}) * 1000)::float8` })
    .from(workers);
  const registered = new Map(sightings.map((worker) => [worker.id, worker]));
  const gone = holders
    .map((holder) => holder.id!)
    .filter((id) => {
      const worker = registered.get(id);
      return !worker || isWorkerDead(worker, observer);
    });
  if (gone.length === 0) return 0;
  const freed = await db.update(webhookDeliveries).set(FREE_LEASE).where(inArray(webhookDeliveries.lockedBy, gone)).returning({ id: webhookDeliveries.id });
  return freed.length;
}

/** Frees every delivery lease: for the embedded database at start, where no other process can hold one. */
export async function unsafeReleaseAllDeliveryLeases(db: Db): Promise<number> {
  const freed = await db.update(webhookDeliveries).set(FREE_LEASE).where(isNotNull(webhookDeliveries.lockedBy)).returning({ id: webhookDeliveries.id });
  return freed.length;
}
