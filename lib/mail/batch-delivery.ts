import { randomUUID } from 'node:crypto';
import type { Services } from '@/lib/core/context';
import { unsafePauseOnBounceRate } from '@/lib/core/domains/pause-on-bounce-rate';
import { deliveryCounterWriter } from '@/lib/core/statistics/counter-writers';
import { MAILBOX_PROVIDERS } from '@/lib/core/providers/classify-mailbox-provider';
import { observeProviderPacing } from '@/lib/shared/metrics';
import type { ClaimedMessage } from './claim-due-messages';
import { loadBatchContext, runPipeline } from './delivery-pipeline';
import { Destinations } from './destinations';
import { DomainProviderRecorder } from './record-domain-provider';
import { createMailBuilder } from './mail-builder';
import { unsafeHoldStoppedCampaignMessages } from './hold-stopped-campaign-messages';
import { unsafeHoldUnsendableMessages } from './hold-unsendable-messages';
import { unsafeHoldWarmupMessages } from './hold-warmup-messages';
import { OutcomeWriter } from './outcome-writer';
import { bouncedDomainIds, recordOutcomes } from './record-outcomes';
import { WarmupGate } from './warmup-gate';
import { unsafeDeleteProviderPacing, unsafeWriteProviderPacing } from './write-provider-pacing';

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
  const providers = new DomainProviderRecorder(services);
  destinations.onClassified = (domain, provider, mxHosts) => providers.note(domain, provider, mxHosts);
  const mail = createMailBuilder({ threads: config.delivery.threads });
  const counterWriter = deliveryCounterWriter();
  const warmup = new WarmupGate(db, config.ipWarmup ?? null);
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
  const namedProviders = MAILBOX_PROVIDERS.filter((provider) => provider !== 'other');
  // Pacing changes reach /metrics, the API and the dashboard within a second; nothing is written while none changes.
  const pacingTimer = setInterval(() => {
    const { pacing } = destinations;
    observeProviderPacing(namedProviders, pacing.states(), config.delivery.connections);
    const changed = pacing.takeChanged(Date.now());
    unsafeWriteProviderPacing(db, workerId, changed, services.now()).catch((error) =>
      logger.warn({ err: error }, 'provider pacing could not be written; it is shown late'),
    );
  }, 1000);
  observeProviderPacing(namedProviders, [], config.delivery.connections);

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
        warmup,
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
      const finished = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      const held = finished.flatMap(({ message, outcome }) =>
        outcome.kind === 'held' ? [{ message, hold: outcome }] : [],
      );
      const recorded = finished.flatMap(({ message, outcome }) =>
        outcome.kind === 'held' ? [] : [{ message, outcome }],
      );
      // Not written: those messages are claimed again after their lease, and the gate decides again.
      await unsafeHoldWarmupMessages(db, held, { workerId, now: services.now() }).catch((error) =>
        batchLogger.error(
          { err: error },
          'warm-up holds could not be written; those messages are retried after their lease',
        ),
      );
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
      clearInterval(pacingTimer);
      await writer.drain();
      await unsafeDeleteProviderPacing(db, workerId).catch(() => {});
      destinations.close();
      await providers.drain();
      await mail.close();
    },
  };
}
