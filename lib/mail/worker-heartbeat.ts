import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, sql } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { messages, workers } from '@/lib/db/schema';
import { isLeased, unsafeReclaimAllLeases, unsafeReclaimDeadLeases } from './reclaim-dead-leases';
import { HEARTBEAT_MS, hostIdentity, isProcessAlive } from './worker-liveness';

/**
 * Registers this process as a worker (`host:pid:random`, the id its leases carry) with a heartbeat,
 * and frees the leases of dead workers at start and with every heartbeat. `isOnlyProcess` (the
 * embedded database) frees every lease at start instead: no other process can hold one.
 */
export async function startWorkerHeartbeat(
  services: Pick<Services, 'db' | 'logger'>,
  options: { isOnlyProcess: boolean; intervalMs?: number },
): Promise<{ workerId: string; stop: () => Promise<void> }> {
  const { db, logger } = services;
  const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const observer = { workerId, host: hostIdentity(), pid: process.pid, isProcessAlive };
  // Upserted with every beat: a worker that others wrongly took for dead (a long stall) comes back.
  const beat = () =>
    db
      .insert(workers)
      .values({ id: workerId, hostname: observer.host, pid: process.pid, startedAt: sql`now()`, heartbeatAt: sql`now()` })
      .onConflictDoUpdate({ target: workers.id, set: { heartbeatAt: sql`now()` } });
  const reclaim = async () => {
    const { deadWorkers, freed } = await unsafeReclaimDeadLeases(db, observer);
    if (deadWorkers.length > 0 || freed > 0) logger.warn({ deadWorkers, freed }, 'freed the messages of workers that are gone');
  };

  await beat();
  if (options.isOnlyProcess) {
    const { freed } = await unsafeReclaimAllLeases(db, workerId);
    if (freed > 0) logger.warn({ freed }, 'freed the messages that a previous process held when it stopped');
  } else {
    await reclaim();
  }

  let tick: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    tick = tick
      .then(async () => {
        await beat();
        if (!options.isOnlyProcess) await reclaim();
      })
      .catch((error) => logger.warn({ err: error }, 'worker heartbeat failed'));
  }, options.intervalMs ?? HEARTBEAT_MS);

  return {
    workerId,
    async stop() {
      clearInterval(timer);
      await tick;
      // Anything still held goes back to the queue now; then this worker is gone.
      await db.update(messages).set({ leaseUntil: null, lockedBy: null }).where(and(isLeased, eq(messages.lockedBy, workerId)));
      await db.delete(workers).where(eq(workers.id, workerId));
    },
  };
}
