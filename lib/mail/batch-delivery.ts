import { randomUUID } from 'node:crypto';
import type { Services } from '@/lib/core/context';
import { unsafePauseOnBounceRate } from '@/lib/core/domains/pause-on-bounce-rate';
import { deliveryCounterWriter } from '@/lib/core/statistics/counter-writers';
import type { ClaimedMessage } from './claim-due-messages';
import { loadBatchContext, runPipeline } from './delivery-pipeline';
import { Destinations } from './destinations';
import { createMailBuilder } from './mail-builder';
import { unsafeHoldStoppedCampaignMessages } from './hold-stopped-campaign-messages';
import { unsafeHoldUnsendableMessages } from './hold-unsendable-messages';
import { OutcomeWriter } from './outcome-writer';
import { bouncedDomainIds, recordOutcomes } from './record-outcomes';

/**
 * Delivery of claimed batches (the worker role's delivery loop claims them, lib/workers/delivery-loop.ts):
 * each message runs through the pipeline, connections shared per destination. Each outcome is written
 * as soon as the server replies (group commit, outcome-writer.ts), before its connection carries the
 * next message, so that a crash re-sends at most one message per open connection.
 */
export function createBatchDelivery(
  services: Services,
  options: { workerId: string; outcomeGatherMs: number },
): { deliverBatch: (claimed: ClaimedMessage[], now: Date) => Promise<void>; close: () => Promise<void> } {
  const { config, db, logger } = services;
  const { workerId } = options;
  const destinations = new Destinations(services);
  const mail = createMailBuilder({ threads: config.delivery.threads });
  const counterWriter = deliveryCounterWriter();
  const writer = new OutcomeWriter(
    (outcomes, dataSentIds) =>
      recordOutcomes(services, db, workerId, outcomes, { now: services.now(), dataSentIds, counterWriter }),
    {
      // A full group is one outcome per connection of a destination: then every connection waits on it.
      delayMs: options.outcomeGatherMs,
      fullGroup: config.delivery.connections,
      onError: (error, count) =>
        logger.error(
          { err: error, outcomes: count },
          'outcomes could not be written; those messages are retried after their lease',
        ),
    },
  );
  const idleTimer = setInterval(() => destinations.closeIdle(), 10_000);

  const deliverBatch = async (claimed: ClaimedMessage[], now: Date) => {
    // Every line about this batch and its messages carries batchId (and messageId): one delivery can be followed.
    const batchLogger = logger.child({ batchId: randomUUID() });
    batchLogger.debug({ messages: claimed.length, workerId }, 'delivery batch claimed');
    try {
      const sendable = await unsafeHoldUnsendableMessages(db, claimed, { workerId, now });
      const deliverable = await unsafeHoldStoppedCampaignMessages(db, sendable, { workerId, now });
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
          batchLogger.debug(
            { messageId: message.id, outcome: outcome.kind, response: outcome.log },
            'delivery outcome',
          );
          return { message, outcome };
        }),
      );
      const recorded = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      await unsafePauseOnBounceRate(services, db, bouncedDomainIds(recorded), services.now()).catch((error) =>
        batchLogger.error({ err: error }, 'bounce-rate check failed'),
      );
    } catch (error) {
      batchLogger.error({ err: error }, 'delivery batch failed; its messages are retried after their lease');
    }
  };

  return {
    deliverBatch,
    // After the last batch: the outcomes still gathering are written before connections close.
    async close() {
      clearInterval(idleTimer);
      await writer.drain();
      destinations.close();
      await mail.close();
    },
  };
}
