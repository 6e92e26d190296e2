import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { eq, sql } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { workers } from '@/lib/db/schema';
import { HEARTBEAT_MS, hostIdentity } from './liveness';

/**
 * Registers this process as a worker (`host:pid:random`, the id every loop's leases carry) with a
 * heartbeat that other processes watch (liveness.ts); each loop frees the leases of dead workers
 * itself (run-loop.ts). The stop forgets this worker, once its loops have handed their work back.
 */
export async function startWorkerHeartbeat(
  services: Pick<Services, 'db' | 'logger'>,
  options: { intervalMs?: number } = {},
): Promise<{ workerId: string; stop: () => Promise<void> }> {
  const { db, logger } = services;
  const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const host = hostIdentity();
  // Upserted with every beat: a worker that others wrongly took for dead (a long stall) comes back.
  const beat = () =>
    db
      .insert(workers)
      .values({ id: workerId, hostname: host, pid: process.pid, startedAt: sql`now()`, heartbeatAt: sql`now()` })
      .onConflictDoUpdate({ target: workers.id, set: { heartbeatAt: sql`now()` } });

  await beat();
  let tick: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    tick = tick.then(beat).then(
      () => {},
      (error) => logger.warn({ err: error }, 'worker heartbeat failed'),
    );
  }, options.intervalMs ?? HEARTBEAT_MS);

  return {
    workerId,
    async stop() {
      clearInterval(timer);
      await tick;
      await db.delete(workers).where(eq(workers.id, workerId));
    },
  };
}
