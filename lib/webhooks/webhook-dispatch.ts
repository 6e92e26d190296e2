import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Services } from '@/lib/core/context';
import { ROUTE_SECRET_PURPOSE } from '@/lib/core/routes/create-route';
import { WEBHOOK_SECRET_PURPOSE } from '@/lib/core/webhooks/create-webhook';
import { deliveryTargetOf } from '@/lib/core/webhooks/delivery-target';
import { loadDeliveryPayloads } from '@/lib/core/webhooks/load-delivery-payloads';
import { routes, webhooks } from '@/lib/db/schema';
import { releaseDeliveries, unsafeClaimDueDeliveries, type ClaimedDelivery } from './claim-due-deliveries';
import { recordAttempt } from './record-attempt';
import { unsafeTakeEndpointProbes } from './take-endpoint-probes';
import { createWebhookClient, type AttemptResult } from './send-webhook';
import { webhookHeaders } from './sign-webhook';
import { webhookAttemptsTotal } from '@/lib/shared/metrics';

/** Calls to one webhook or route in flight at once from one process, so that a slow receiver cannot take every slot. */
const PER_TARGET_IN_FLIGHT = 4;

type Target = { url: string; secret: string };

/** A claimed delivery ready to send: its target (null when gone) and its body (null when its event is gone). */
export type DispatchItem = {
  delivery: ClaimedDelivery;
  target: Target | null;
  body: string | null;
  batchLogger: Logger;
};

/**
 * Webhook and route dispatch (one outbox, one code path: a delivery's target is a webhook or a
 * route, and only the URL and secret come from one table or the other), for the worker role's
 * webhook loop (lib/workers/webhook-loop.ts): claim due deliveries (as many as free slots), sign and
 * POST each (send-webhook.ts), record each attempt as soon as it ends (record-attempt.ts). A failing
 * endpoint is backed off as a whole: one probe at a time (take-endpoint-probes.ts), its other
 * deliveries left untouched until one succeeds; no target takes more than PER_TARGET_IN_FLIGHT slots.
 */
export function createWebhookDispatch(
  services: Services,
  options: { workerId: string },
): { claim: (free: number) => Promise<DispatchItem[]>; run: (item: DispatchItem) => Promise<void>; close: () => void } {
  const { db, config, logger, secrets } = services;
  const { workerId } = options;
  const settings = config.webhooks;
  const leaseMs = settings.timeoutMs + 60_000;
  // Covers one attempt and its record; a prober killed meanwhile holds its endpoint no longer than this.
  const probeLeaseMs = settings.timeoutMs + 10_000;
  const client = createWebhookClient({
    dns: services.dns,
    timeoutMs: settings.timeoutMs,
    allowPrivateNetworks: config.allowPrivateNetworks,
    maxSockets: PER_TARGET_IN_FLIGHT,
    caPem: settings.caPem,
  });
  const perTarget = new Map<string, number>();

  const attempt = async (
    delivery: ClaimedDelivery,
    target: Target | null,
    body: string | null,
    batchLogger: Logger,
  ) => {
    const at = services.now();
    let result: AttemptResult;
    if (!target || body === null) {
      result = {
        isSuccess: false,
        status: null,
        latencyMs: 0,
        error: target
          ? 'the event of this delivery is no longer stored'
          : `the ${deliveryTargetOf(delivery).kind} is gone`,
        body: null,
      };
    } else {
      result = await client.send({
        url: target.url,
        headers: webhookHeaders(target.secret, delivery.id, body, at),
        body,
      });
    }
    webhookAttemptsTotal.labels(result.isSuccess ? 'success' : 'failure').inc();
    batchLogger.debug(
      {
        deliveryId: delivery.id,
        eventType: delivery.eventType,
        status: result.status,
        latencyMs: result.latencyMs,
        isSuccess: result.isSuccess,
        error: result.error,
      },
      'webhook attempt',
    );
    try {
      const recorded = await recordAttempt(db, services, { workerId, delivery, result, at: services.now() });
      if (recorded?.disabledWebhook)
        batchLogger.warn(
          { webhookId: delivery.webhookId, routeId: delivery.routeId, accountId: delivery.accountId },
          `${deliveryTargetOf(delivery).kind} disabled after a run of failed deliveries`,
        );
    } catch (error) {
      batchLogger.error(
        { err: error, deliveryId: delivery.id },
        'a webhook attempt could not be recorded; the delivery is retried after its lease',
      );
    }
  };

  // Counted from the claim that takes a delivery to the end of its attempt.
  const run = async ({ delivery, target, body, batchLogger }: DispatchItem) => {
    const key = deliveryTargetOf(delivery).id;
    try {
      await attempt(delivery, target, body, batchLogger);
    } finally {
      const left = (perTarget.get(key) ?? 1) - 1;
      if (left > 0) perTarget.set(key, left);
      else perTarget.delete(key);
    }
  };

  const claim = async (free: number): Promise<DispatchItem[]> => {
    const skipTargets = [...perTarget].filter(([, count]) => count >= PER_TARGET_IN_FLIGHT).map(([id]) => id);
    const claimed = await unsafeClaimDueDeliveries(db, {
      workerId,
      limit: free,
      leaseMs,
      now: services.now(),
      skipTargets,
    });
    if (claimed.length === 0) return [];
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
    // A failing endpoint gets one probe at a time; its other deliveries wait for the probe's outcome.
    const probes = await unsafeTakeEndpointProbes(
      db,
      taken.filter((delivery) => !delivery.isTest).map(deliveryTargetOf),
      { now: services.now(), leaseMs: probeLeaseMs },
    );
    const sending = taken.filter((delivery) => {
      const key = deliveryTargetOf(delivery).id;
      if (delivery.isTest || !probes.failing.has(key)) return true;
      const isProbe = probes.taken.delete(key);
      if (!isProbe) handedBack.push(delivery.id);
      return isProbe;
    });
    await releaseDeliveries(db, workerId, handedBack);
    if (sending.length === 0) return [];
    // Every line about this claim and its attempts carries batchId (and deliveryId).
    const batchLogger = logger.child({ batchId: randomUUID() });
    batchLogger.debug({ deliveries: sending.length, handedBack: handedBack.length, workerId }, 'webhook batch claimed');
    const targets = await loadTargets(sending);
    const payloads = await loadDeliveryPayloads(db, sending);
    return sending.map((delivery) => {
      const key = deliveryTargetOf(delivery).id;
      perTarget.set(key, (perTarget.get(key) ?? 0) + 1);
      const payload = payloads.get(delivery.id);
      return {
        delivery,
        target: targets.get(key) ?? null,
        body: payload ? JSON.stringify(payload) : null,
        batchLogger,
      };
    });
  };

  /** URL and plain secret by webhook or route id (UUIDs: the two never collide). */
  const loadTargets = async (deliveries: ClaimedDelivery[]): Promise<Map<string, Target>> => {
    const idsOf = (kind: 'webhook' | 'route') => [
      ...new Set(
        deliveries
          .map(deliveryTargetOf)
          .filter((target) => target.kind === kind)
          .map((target) => target.id),
      ),
    ];
    const webhookIds = idsOf('webhook');
    const routeIds = idsOf('route');
    const columns = (table: typeof webhooks | typeof routes) => ({
      id: table.id,
      url: table.url,
      secretEncrypted: table.secretEncrypted,
    });
    const webhookRows = webhookIds.length
      ? await db.select(columns(webhooks)).from(webhooks).where(inArray(webhooks.id, webhookIds))
      : [];
    const routeRows = routeIds.length
      ? await db.select(columns(routes)).from(routes).where(inArray(routes.id, routeIds))
      : [];
    return new Map([
      ...webhookRows.map(
        (row) =>
          [row.id, { url: row.url, secret: secrets.decrypt(WEBHOOK_SECRET_PURPOSE, row.secretEncrypted) }] as const,
      ),
      ...routeRows.map(
        (row) =>
          [row.id, { url: row.url, secret: secrets.decrypt(ROUTE_SECRET_PURPOSE, row.secretEncrypted) }] as const,
      ),
    ]);
  };

  return { claim, run, close: () => client.close() };
}
