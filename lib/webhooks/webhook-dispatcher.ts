import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Services } from '@/lib/core/context';
import { ROUTE_SECRET_PURPOSE } from '@/lib/core/routes/create-route';
import { WEBHOOK_SECRET_PURPOSE } from '@/lib/core/webhooks/create-webhook';
import { onWebhookDeliveriesQueued } from '@/lib/core/webhooks/delivery-signal';
import { deliveryTargetOf } from '@/lib/core/webhooks/delivery-target';
import { loadDeliveryPayloads } from '@/lib/core/webhooks/load-delivery-payloads';
import { routes, webhooks } from '@/lib/db/schema';
import { hostIdentity, isProcessAlive, startLeaseReclaim } from '@/lib/mail/worker-liveness';
import { releaseDeliveries, unsafeClaimDueDeliveries, type ClaimedDelivery } from './claim-due-deliveries';
import { recordAttempt } from './record-attempt';
import { unsafeReclaimDeadDeliveryLeases, unsafeReleaseAllDeliveryLeases } from './reclaim-delivery-leases';
import { createWebhookClient, type AttemptResult } from './send-webhook';
import { webhookHeaders } from './sign-webhook';
import { webhookAttemptsTotal } from '@/lib/shared/metrics';

/** Calls to one webhook or route in flight at once from one process, so that a slow receiver cannot take every slot. */
const PER_TARGET_IN_FLIGHT = 4;

type Target = { url: string; secret: string };

/**
 * The worker role's webhook and route loop (one outbox, one code path: a delivery's target is a
 * webhook or a route, and only the URL and secret come from one table or the other): claim due deliveries (as many as free slots, WEBHOOK_CONCURRENCY),
 * sign and POST each (send-webhook.ts), record each attempt as soon as it ends (record-attempt.ts),
 * sleep when nothing is due. It runs under the delivery worker's id, whose heartbeat other processes
 * watch: a killed process's deliveries are freed as soon as it is known to be gone (or when their
 * lease runs out), so nothing is lost and only attempts in flight at the kill can arrive twice.
 */
export async function startWebhookDispatcher(services: Services, options: { workerId: string; isOnlyProcess: boolean }): Promise<{ stop: () => Promise<void> }> {
  const { db, config, logger, secrets } = services;
  const { workerId } = options;
  const settings = config.webhooks;
  const leaseMs = settings.timeoutMs + 60_000;
  const client = createWebhookClient({ dns: services.dns, timeoutMs: settings.timeoutMs, allowPrivateNetworks: config.allowPrivateNetworks, maxSockets: PER_TARGET_IN_FLIGHT });
  const observer = { workerId, host: hostIdentity(), pid: process.pid, isProcessAlive };

  const stopReclaim = await startLeaseReclaim({
    isOnlyProcess: options.isOnlyProcess,
    releaseAll: () => unsafeReleaseAllDeliveryLeases(db),
    reclaimDead: () => unsafeReclaimDeadDeliveryLeases(db, observer),
    what: 'webhook deliveries',
    logger,
  });

  let isStopping = false;
  let wake: (() => void) | null = null;
  const stopListening = onWebhookDeliveriesQueued(() => wake?.());
  const inFlight = new Set<Promise<void>>();
  const perTarget = new Map<string, number>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, ms);
    });

  const attempt = async (delivery: ClaimedDelivery, target: Target | null, body: string | null, batchLogger: Logger) => {
    const at = services.now();
    let result: AttemptResult;
    if (!target || body === null) {
      result = { isSuccess: false, status: null, latencyMs: 0, error: target ? 'the event of this delivery is no longer stored' : `the ${deliveryTargetOf(delivery).kind} is gone`, body: null };
    } else {
      result = await client.send({ url: target.url, headers: webhookHeaders(target.secret, delivery.id, body, at), body });
    }
    webhookAttemptsTotal.labels(result.isSuccess ? 'success' : 'failure').inc();
    batchLogger.debug({ deliveryId: delivery.id, eventType: delivery.eventType, status: result.status, latencyMs: result.latencyMs, isSuccess: result.isSuccess, error: result.error }, 'webhook attempt');
    try {
      const recorded = await recordAttempt(db, config, { workerId, delivery, result, at: services.now() });
      if (recorded?.disabledWebhook) batchLogger.warn({ webhookId: delivery.webhookId, routeId: delivery.routeId, accountId: delivery.accountId }, `${deliveryTargetOf(delivery).kind} disabled after a run of failed deliveries`);
    } catch (error) {
      batchLogger.error({ err: error, deliveryId: delivery.id }, 'a webhook attempt could not be recorded; the delivery is retried after its lease');
    }
  };

  const start = (delivery: ClaimedDelivery, target: Target | null, body: string | null, batchLogger: Logger) => {
    const key = deliveryTargetOf(delivery).id;
    perTarget.set(key, (perTarget.get(key) ?? 0) + 1);
    const running: Promise<void> = attempt(delivery, target, body, batchLogger).finally(() => {
      inFlight.delete(running);
      const left = (perTarget.get(key) ?? 1) - 1;
      if (left > 0) perTarget.set(key, left);
      else perTarget.delete(key);
    });
    inFlight.add(running);
  };

  const claimAndStart = async (): Promise<number> => {
    const free = settings.concurrency - inFlight.size;
    const skipTargets = [...perTarget].filter(([, count]) => count >= PER_TARGET_IN_FLIGHT).map(([id]) => id);
    const claimed = await unsafeClaimDueDeliveries(db, { workerId, limit: free, leaseMs, now: services.now(), skipTargets });
    if (claimed.length === 0) return 0;
    // Past the per-target limit within this claim: handed back for later (or another process).
    const taken: ClaimedDelivery[] = [];
    const handedBack: string[] = [];
    const counts = new Map(perTarget);
    for (const delivery of claimed) {
      const key = deliveryTargetOf(delivery).id;
      const count = counts.get(key) ?? 0;
      if (count >= PER_TARGET_IN_FLIGHT) handedBack.push(delivery.id);
      else {
        counts.set(key, count + 1);
        taken.push(delivery);
      }
    }
    await releaseDeliveries(db, workerId, handedBack);
    // Every line about this claim and its attempts carries batchId (and deliveryId).
    const batchLogger = logger.child({ batchId: randomUUID() });
    batchLogger.debug({ deliveries: taken.length, handedBack: handedBack.length, workerId }, 'webhook batch claimed');
    const targets = await loadTargets(taken);
    const payloads = await loadDeliveryPayloads(db, taken);
    for (const delivery of taken) {
      const payload = payloads.get(delivery.id);
      start(delivery, targets.get(deliveryTargetOf(delivery).id) ?? null, payload ? JSON.stringify(payload) : null, batchLogger);
    }
    return taken.length;
  };

  /** URL and plain secret by webhook or route id (UUIDs: the two never collide). */
  const loadTargets = async (deliveries: ClaimedDelivery[]): Promise<Map<string, Target>> => {
    const idsOf = (kind: 'webhook' | 'route') => [...new Set(deliveries.map(deliveryTargetOf).filter((target) => target.kind === kind).map((target) => target.id))];
    const webhookIds = idsOf('webhook');
    const routeIds = idsOf('route');
    const columns = (table: typeof webhooks | typeof routes) => ({ id: table.id, url: table.url, secretEncrypted: table.secretEncrypted });
    const webhookRows = webhookIds.length ? await db.select(columns(webhooks)).from(webhooks).where(inArray(webhooks.id, webhookIds)) : [];
    const routeRows = routeIds.length ? await db.select(columns(routes)).from(routes).where(inArray(routes.id, routeIds)) : [];
    return new Map([
      ...webhookRows.map((row) => [row.id, { url: row.url, secret: secrets.decrypt(WEBHOOK_SECRET_PURPOSE, row.secretEncrypted) }] as const),
      ...routeRows.map((row) => [row.id, { url: row.url, secret: secrets.decrypt(ROUTE_SECRET_PURPOSE, row.secretEncrypted) }] as const),
    ]);
  };

  const loop = (async () => {
    while (!isStopping) {
      if (inFlight.size >= settings.concurrency) {
        await Promise.race(inFlight);
        continue;
      }
      try {
        if ((await claimAndStart()) === 0) {
          await Promise.race([...inFlight, sleep(settings.pollMs)]);
          wake = null;
        }
      } catch (error) {
        logger.error({ err: error }, 'claiming due webhook deliveries failed');
        await sleep(settings.pollMs);
      }
    }
    await Promise.all(inFlight);
  })();

  return {
    async stop() {
      isStopping = true;
      wake?.();
      stopListening();
      await loop;
      await stopReclaim();
      client.close();
    },
  };
}
