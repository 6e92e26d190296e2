/** Who an outbox row is for: a webhook (an event) or a route (an inbound message). */
export type DeliveryTarget = { kind: 'webhook' | 'route'; id: string };

/** The target of a delivery row; the table's check makes exactly one of the two ids set. */
export function deliveryTargetOf(delivery: { webhookId: string | null; routeId: string | null }): DeliveryTarget {
  if (delivery.routeId !== null) return { kind: 'route', id: delivery.routeId };
  return { kind: 'webhook', id: delivery.webhookId! };
}
