import { isQueueingInBulk } from '@/lib/core/shared/work-signal';
import { createBatchDelivery } from '@/lib/mail/batch-delivery';
import { unsafeClaimDueMessages, type ClaimedMessage } from '@/lib/mail/claim-due-messages';
import { hostIdentity, isProcessAlive } from './liveness';
import {
  MESSAGE_LEASES,
  unsafeReclaimAllLeases,
  unsafeReclaimDeadLeases,
  unsafeReleaseOwnLeases,
} from './reclaim-leases';
import { anyLoop, type LoopRow } from './worker-context';

/**
 * PGlite runs one statement at a time, on its own thread (open-pglite-thread.ts): a second batch in
 * flight keeps that thread and this loop busy at once (paired versus-postfix runs: 939-963 msg/s
 * with two, 848-864 with one, no better with three); more only wait. Its writes cost the process's
 * own CPU, so outcomes gather into fewer writes. On PostgreSQL a shorter gathering still pays: fewer
 * commits cost the database 0.34-0.36 ms of CPU per message instead of 0.41-0.46 (paired runs).
 */
const TUNING = {
  pglite: { batchesInFlight: 2, outcomeGatherMs: 5 },
  postgres: { batchesInFlight: 4, outcomeGatherMs: 3 },
};

/**
 * The delivery loop: claim a batch of due messages while other batches run, deliver it (lib/mail),
 * sleep when nothing is due; while this process queues a campaign in bulk, claims wait. On stop,
 * outcomes still gathering are written and anything still held goes back to the queue.
 */
export const deliveryLoop = {
  name: 'delivery',
  define: ({ services, workerId, database }) => {
    const { config, db } = services;
    const tuning = TUNING[database];
    const delivery = createBatchDelivery(services, { workerId, outcomeGatherMs: tuning.outcomeGatherMs });
    const observer = { workerId, host: hostIdentity(), pid: process.pid, isProcessAlive };
    const leaseMs = config.delivery.leaseSeconds * 1000;
    return anyLoop<{ claimed: ClaimedMessage[]; now: Date }>({
      name: 'delivery',
      capacity: tuning.batchesInFlight,
      pollMs: config.delivery.pollMs,
      wakeOn: 'messages',
      isPaused: isQueueingInBulk,
      async claim() {
        const now = services.now();
        const claimed = await unsafeClaimDueMessages(db, { workerId, limit: config.delivery.batchSize, leaseMs, now });
        return claimed.length === 0 ? [] : [{ claimed, now }];
      },
      run: (batch) => delivery.deliverBatch(batch.claimed, batch.now),
      reclaim: {
        what: 'messages',
        releaseAll: async () => (await unsafeReclaimAllLeases(db, workerId)).freed,
        reclaimDead: async () => (await unsafeReclaimDeadLeases(db, observer)).freed,
      },
      async close() {
        await delivery.close();
        await unsafeReleaseOwnLeases(db, workerId, MESSAGE_LEASES);
      },
    });
  },
} satisfies LoopRow;
