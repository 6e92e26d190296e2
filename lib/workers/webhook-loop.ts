import type { Services } from '@/lib/core/context';
import { createWebhookDispatch, type DispatchItem } from '@/lib/webhooks/webhook-dispatch';
import { hostIdentity, isProcessAlive } from './liveness';
import { unsafeReclaimDeadLeases, unsafeReleaseAllLeases, WEBHOOK_DELIVERY_LEASES } from './reclaim-leases';
import { startLoop, type RunningLoop } from './run-loop';
import { anyLoop, type LoopRow, type WorkerContext } from './worker-context';

/**
 * The webhook and route loop: claim due deliveries into free slots (WEBHOOK_CONCURRENCY), send each
 * (lib/webhooks), sleep when nothing is due. A killed process's deliveries are freed as soon as it is
 * known to be gone (or when their lease runs out), so only attempts in flight at the kill arrive twice.
 */
export const webhookLoop = {
  name: 'webhooks',
  define: ({ services, workerId }: WorkerContext) => {
    const { config, db } = services;
    const dispatch = createWebhookDispatch(services, { workerId });
    const observer = { workerId, host: hostIdentity(), pid: process.pid, isProcessAlive };
    return anyLoop<DispatchItem>({
      name: 'webhooks',
      capacity: config.webhooks.concurrency,
      pollMs: config.webhooks.pollMs,
      wakeOn: 'webhook-deliveries',
      claim: (free) => dispatch.claim(free),
      run: (item) => dispatch.run(item),
      reclaim: {
        what: 'webhook deliveries',
        releaseAll: () => unsafeReleaseAllLeases(db, WEBHOOK_DELIVERY_LEASES),
        reclaimDead: async () => (await unsafeReclaimDeadLeases(db, observer, WEBHOOK_DELIVERY_LEASES)).freed,
      },
      close: async () => dispatch.close(),
    });
  },
} satisfies LoopRow;

/** The webhook loop alone, under a worker id registered elsewhere (specs run two in one process). */
export async function startWebhookDispatcher(
  services: Services,
  options: { workerId: string; isOnlyProcess: boolean },
): Promise<RunningLoop> {
  const worker: WorkerContext = { services, ...options, database: options.isOnlyProcess ? 'pglite' : 'postgres' };
  return startLoop(webhookLoop.define(worker), { logger: services.logger, isOnlyProcess: options.isOnlyProcess });
}
