import { WEBHOOK_EVENTS as EVENTS, type WebhookFlag } from '@/lib/core/webhooks/fan-out';

const LABELS: Record<WebhookFlag, string> = {
  on_reception: 'Accepted',
  on_delivered: 'Delivered',
  on_transient_error: 'Deferred (temporary error)',
  on_failed: 'Failed',
  on_bounced: 'Bounced',
  on_suppressed: 'Not sent: recipient suppressed',
  on_opened: 'Opened',
  on_clicked: 'Clicked',
  on_suppression_created: 'Suppression created',
  on_dns_error: 'Domain DNS error',
  on_complained: 'Complaint (spam report)',
};

/** The event flags of a webhook, in the contract's order (then Mailstead's extension), with the event type each one sends. */
export const WEBHOOK_EVENTS = EVENTS.map((event) => ({
  flag: event.flag,
  type: event.type,
  label: LABELS[event.flag],
}));

export type { WebhookFlag };
