import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { events } from '@/lib/db/schema';
import { buildWebhookPayload } from './internal/build-webhook-payload';
import type { DeliveryRow } from './internal/present';

/** A webhook event body, or a route's `message.routing` body as the MX stored it. */
export type WebhookPayload = ReturnType<typeof buildWebhookPayload> | Record<string, unknown>;

/**
 * The body each delivery sends, by delivery id: built from its event row (or the sample a trigger
 * stored), or for a route the whole body stored with it, so every attempt of a delivery sends the
 * same bytes. Null when the event is gone.
 */
export async function loadDeliveryPayloads(
  db: DbOrTx,
  deliveries: Pick<
    DeliveryRow,
    'id' | 'accountId' | 'webhookId' | 'routeId' | 'eventId' | 'eventType' | 'samplePayload' | 'createdAt'
  >[],
): Promise<Map<string, WebhookPayload | null>> {
  const payloads = new Map<string, WebhookPayload | null>();
  const real = deliveries.filter((delivery) => delivery.samplePayload === null && delivery.routeId === null);
  const rows = real.length
    ? await db
        .select({
          id: events.id,
          accountId: events.accountId,
          type: events.type,
          createdAt: events.createdAt,
          payload: events.payload,
        })
        .from(events)
        .where(
          inArray(
            events.id,
            real.map((delivery) => delivery.eventId),
          ),
        )
    : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const delivery of deliveries) {
    if (delivery.routeId !== null) {
      payloads.set(delivery.id, delivery.samplePayload);
      continue;
    }
    const webhookId = delivery.webhookId!;
    if (delivery.samplePayload !== null) {
      payloads.set(
        delivery.id,
        buildWebhookPayload(
          { type: delivery.eventType, createdAt: delivery.createdAt, payload: delivery.samplePayload },
          webhookId,
        ),
      );
      continue;
    }
    const event = byId.get(delivery.eventId);
    // The account check keeps one account's delivery from ever carrying another's event.
    payloads.set(
      delivery.id,
      event && event.accountId === delivery.accountId ? buildWebhookPayload(event, webhookId) : null,
    );
  }
  return payloads;
}
