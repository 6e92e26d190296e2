import { randomUUID } from 'node:crypto';
import type { Services } from '@/lib/core/context';
import { unsafePauseOnBounceRate } from '@/lib/core/domains/pause-on-bounce-rate';
import { isQueueingInBulk, onMessagesQueued } from '@/lib/core/messages/queue-signal';
import { deliveryCounterWriter } from '@/lib/core/stats/counter-writers';
import { unsafeClaimDueMessages } from './claim-due-messages';
import { loadBatchContext, runPipeline } from './delivery-pipeline';
import { Destinations } from './destinations';
import { createMailBuilder } from './mail-builder';
import { unsafeHoldUnsendableMessages } from './hold-unsendable-messages';
import { OutcomeWriter } from './outcome-writer';
import { bouncedDomainIds, recordOutcomes } from './record-outcomes';
import { startWorkerHeartbeat } from './worker-heartbeat';

/**
 * PGlite runs one statement at a time, on its own thread (open-pglite-thread.ts): a second batch in
 * flight keeps that thread and this loop busy at once (paired versus-postfix runs: 939-963 msg/s
 * with two, 848-864 with one, no better with three); more only wait. Its writes cost the process's
 * own CPU, so outcomes gather into fewer writes. On PostgreSQL a shorter gathering still pays: fewer
 * commits cost the database 0.34-0.36 ms of CPU per message instead of 0.41-0.46 (paired runs).
 */
const TUNING = {
  pglite: { batchesInFlight: 2, outcomeGatherMs: 5, isOnlyProcess: true },
  postgres: { batchesInFlight: 4, outcomeGatherMs: 3, isOnlyProcess: false },
};

/**
 * The worker role's delivery loop: claim a batch of due messages, run each through the pipeline
 * (connections shared per destination), repeat; sleep when nothing is due. Each outcome is written
 * as soon as the server replies (group commit, outcome-writer.ts), before its connection carries the
 * next message, so that a crash re-sends at most one message per open connection.
 */
export async function startDeliveryWorker(services: Services, options: { database: keyof typeof TUNING }): Promise<{ workerId: string; isOnlyProcess: boolean; stop: () => Promise<void> }> {
  const { config, db, logger } = services;
  const tuning = TUNING[options.database];
  const heartbeat = await startWorkerHeartbeat(services, { isOnlyProcess: tuning.isOnlyProcess });
  const { workerId } = heartbeat;
  const destinations = new Destinations(services);
  const mail = createMailBuilder({ threads: config.delivery.threads });
  const counterWriter = deliveryCounterWriter();
  const writer = new OutcomeWriter((outcomes, dataSentIds) => recordOutcomes(services, db, workerId, outcomes, { now: services.now(), dataSentIds, counterWriter }), {
    // A full group is one outcome per connection of a destination: then every connection waits on it.
    delayMs: tuning.outcomeGatherMs,
    fullGroup: config.delivery.connections,
    onError: (error, count) => logger.error({ err: error, outcomes: count }, 'outcomes could not be written; those messages are retried after their lease'),
  });
  let isStopping = false;
  let wake: (() => void) | null = null;
  const stopListening = onMessagesQueued(() => wake?.());
  const idleTimer = setInterval(() => destinations.closeIdle(), 10_000);

  const runBatch = async (claimed: Awaited<ReturnType<typeof unsafeClaimDueMessages>>, now: Date) => {
    // Every line about this batch and its messages carries batchId (and messageId): one delivery can be followed.
    const batchLogger = logger.child({ batchId: randomUUID() });
    batchLogger.debug({ messages: claimed.length, workerId }, 'delivery batch claimed');
    try {
      const deliverable = await unsafeHoldUnsendableMessages(db, claimed, { workerId, now });
      if (deliverable.length === 0) return;
      const batch = await loadBatchContext(db, deliverable, {
        services: { ...services, logger: batchLogger },
        now,
        destinations,
        mail,
        onDataSent: (id) => writer.markDataSent(id),
        recordOutcome: (message, outcome) => writer.record(message, outcome),
      });
      // A rejection here is an outcome that could not be written (logged by the writer).
      const settled = await Promise.allSettled(
        deliverable.map(async (message) => {
          const outcome = await runPipeline(message, batch);
          batchLogger.debug({ messageId: message.id, outcome: outcome.kind, response: outcome.log }, 'delivery outcome');
          return { message, outcome };
        }),
      );
      const recorded = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      await unsafePauseOnBounceRate(services, db, bouncedDomainIds(recorded), services.now()).catch((error) => batchLogger.error({ err: error }, 'bounce-rate check failed'));
    } catch (error) {
      batchLogger.error({ err: error }, 'delivery batch failed; its messages are retried after their lease');
    }
  };

  const inFlight = new Set<Promise<void>>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, ms);
    });
  const loop = (async () => {
    while (!isStopping) {
      if (inFlight.size >= tuning.batchesInFlight) {
        await Promise.race(inFlight);
        continue;
      }
      if (isQueueingInBulk()) {
        await Promise.race([...inFlight, sleep(config.delivery.pollMs)]);
        wake = null;
        continue;
      }
      try {
        const now = services.now();
        const claimed = await unsafeClaimDueMessages(db, { workerId, limit: config.delivery.batchSize, leaseMs: config.delivery.leaseSeconds * 1000, now });
        if (claimed.length === 0) {
          await Promise.race([...inFlight, sleep(config.delivery.pollMs)]);
          wake = null;
          continue;
        }
        const running: Promise<void> = runBatch(claimed, now).finally(() => inFlight.delete(running));
        inFlight.add(running);
      } catch (error) {
        logger.error({ err: error }, 'claiming due messages failed');
        await sleep(config.delivery.pollMs);
      }
    }
    await Promise.all(inFlight);
  })();

  return {
    // Other loops of the worker role (webhook dispatch) claim under this id and its heartbeat.
    workerId,
    isOnlyProcess: tuning.isOnlyProcess,
    async stop() {
      isStopping = true;
      wake?.();
      stopListening();
      clearInterval(idleTimer);
      await loop;
      await writer.drain();
      destinations.close();
      await mail.close();
      await heartbeat.stop();
    },
  };
}
