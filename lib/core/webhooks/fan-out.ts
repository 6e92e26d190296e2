import type { EventType } from '@/lib/core/events/internal/record-event';
import type { webhooks } from '@/lib/db/schema';

/**
 * Where webhook deliveries come from. Nothing in TypeScript enqueues them: a statement-level
 * AFTER INSERT trigger on `events` (`events_webhook_fan_out`, SQL in
 * lib/db/migrations/0006_events_out.sql) reads the statement's new events as a transition table
 * and inserts one `webhook_deliveries` row per (event, webhook) for every webhook that
 *   - belongs to the event's account and is enabled,
 *   - has the flag of the event's type on (the table below), and
 *   - is `global`, or lists the event's domain: the domain row the event names (sender domain of
 *     message events, the domain itself for `domain.dns_error`), else `sending_domain` of its payload
 *     (`suppression.created`).
 * So every writer of events (acceptance's one statement, outcomes, opens and clicks, bounce and
 * complaint reports, suppressions, DNS re-checks) gets its deliveries in its own transaction, set-based, with no code of its own; an
 * account without webhooks pays one empty join per statement. Sandbox events are delivered too.
 */
export const WEBHOOK_EVENTS = [
  { type: 'message.reception', flag: 'on_reception', column: 'onReception' },
  { type: 'message.delivered', flag: 'on_delivered', column: 'onDelivered' },
  { type: 'message.transient_error', flag: 'on_transient_error', column: 'onTransientError' },
  { type: 'message.failed', flag: 'on_failed', column: 'onFailed' },
  { type: 'message.bounced', flag: 'on_bounced', column: 'onBounced' },
  { type: 'message.suppressed', flag: 'on_suppressed', column: 'onSuppressed' },
  { type: 'message.opened', flag: 'on_opened', column: 'onOpened' },
  { type: 'message.clicked', flag: 'on_clicked', column: 'onClicked' },
  { type: 'suppression.created', flag: 'on_suppression_created', column: 'onSuppressionCreated' },
  { type: 'domain.dns_error', flag: 'on_dns_error', column: 'onDnsError' },
  // Mailstead extension: a complaint report (ARF) about a message; the payload is a message event's.
  { type: 'message.complained', flag: 'on_complained', column: 'onComplained' },
] as const satisfies readonly { type: EventType; flag: string; column: keyof typeof webhooks.$inferSelect }[];

export type WebhookFlag = (typeof WEBHOOK_EVENTS)[number]['flag'];
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number]['type'];

export const WEBHOOK_FLAGS = WEBHOOK_EVENTS.map((event) => event.flag) as WebhookFlag[];
export const WEBHOOK_EVENT_TYPES = WEBHOOK_EVENTS.map((event) => event.type) as WebhookEventType[];

/** The flag columns of a webhook row set from API flags (absent ones left out). */
export function flagColumns(
  input: Partial<Record<WebhookFlag, boolean | null | undefined>>,
): Partial<Record<(typeof WEBHOOK_EVENTS)[number]['column'], boolean>> {
  return Object.fromEntries(
    WEBHOOK_EVENTS.filter((event) => typeof input[event.flag] === 'boolean').map((event) => [
      event.column,
      input[event.flag],
    ]),
  );
}
