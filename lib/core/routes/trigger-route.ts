import { and, eq, isNull } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { defineVerb } from '@/lib/core/verb';
import { signalWork } from '@/lib/core/shared/work-signal';
import { waitForAttempts } from '@/lib/core/webhooks/internal/wait-for-attempts';
import { domains, webhookDeliveries } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { buildRoutingPayload } from './internal/build-routing-payload';
import { getRouteInAccount, recipientDomains } from './internal/queries';
import { routeIdSchema, triggerRouteSchema } from './schemas';
import { sampleInboundMessage } from './internal/sample-message';

/**
 * Sends a sample `message.routing` event to the route (an extension the AhaSend CLI relies on): a
 * sample inbound mail goes through the same payload builder, outbox, signing and dispatch as real
 * mail, marked as a test (one attempt, the route's counters untouched). The answer waits for that
 * attempt (at most the webhook timeout and a little more) and says how it went.
 */
export const triggerRoute = defineVerb({
  scope: 'routes:write:{domain}',
  input: triggerRouteSchema.extend({ route_id: routeIdSchema }),
  domains: async ({ db, principal }, input) =>
    recipientDomains((await getRouteInAccount(db, principal.targetAccountId, input.route_id)).recipient),
  async run({ db, principal, now, config }, input) {
    const accountId = principal.targetAccountId;
    const route = await getRouteInAccount(db, accountId, input.route_id);
    const [accountDomain] = await db
      .select({ domain: domains.domain })
      .from(domains)
      .where(and(eq(domains.accountId, accountId), isNull(domains.deletedAt)))
      .limit(1);
    const domain = route.domain ?? accountDomain?.domain ?? 'example.com';
    const to = route.recipient.includes('@') && !route.recipient.includes('*') ? route.recipient : `support@${domain}`;
    const at = now();
    const raw = Buffer.from(sampleInboundMessage(to, domain, at));
    const parsed = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true });
    const eventId = newId();
    const payload = buildRoutingPayload(
      parsed,
      { id: eventId, routeId: route.id, to, envelopeSender: 'customer@example.com', size: raw.length, receivedAt: at },
      { attachments: route.attachments, headers: route.headers, stripReplies: route.stripReplies },
    );
    const [row] = await db
      .insert(webhookDeliveries)
      .values({
        id: newId(),
        accountId,
        routeId: route.id,
        eventId,
        eventType: 'message.routing',
        samplePayload: payload,
        isTest: true,
        status: 'pending',
        nextAttemptAt: at,
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: webhookDeliveries.id });
    signalWork('webhook-deliveries');

    const data = (await waitForAttempts(db, [row.id], config.webhooks.timeoutMs + 3000)).map((delivery) => {
      const last = delivery.attemptLog.at(-1) ?? null;
      return {
        id: delivery.id,
        event_type: delivery.eventType,
        status: delivery.status as 'pending' | 'retrying' | 'delivered' | 'failed',
        response_status: last?.response_status ?? null,
        error: last?.error ?? null,
      };
    });
    const status = data[0]?.status ?? 'pending';
    const outcome =
      status === 'delivered'
        ? 'delivered'
        : status === 'failed'
          ? `failed (${data[0].error ?? 'no reason recorded'})`
          : 'not attempted yet';
    return { message: `sent a sample message.routing event: ${outcome}`, data };
  },
});
