import type { WebhookDelivery, WebhookObject } from '@/lib/client/types';
import { Badge } from './feedback';

/** What the badge reads: a webhook and a route share these fields (routes may lack the disable reason). */
type Endpoint = Pick<WebhookObject, 'enabled' | 'errors_since_last_success'> & { disabled_reason?: string | null };

/**
 * A webhook's or route's state in one word: on, off (by a person), turned off by Mailstead (after
 * too many failures in a row; the reason is beside it), or on but failing lately.
 */
export function WebhookStatusBadge({ webhook }: { webhook: Endpoint }) {
  if (!webhook.enabled && webhook.disabled_reason) return <Badge tone="red">Disabled by Mailstead</Badge>;
  if (!webhook.enabled) return <Badge tone="slate">Disabled</Badge>;
  if (webhook.errors_since_last_success > 0) return <Badge tone="amber">Failing</Badge>;
  return <Badge tone="green">Active</Badge>;
}

const DELIVERY_TONES = { delivered: 'green', retrying: 'amber', pending: 'slate', failed: 'red' } as const;
const DELIVERY_LABELS = { delivered: 'Delivered', retrying: 'Retrying', pending: 'Pending', failed: 'Failed' } as const;

export function WebhookDeliveryStatusBadge({ status }: { status: WebhookDelivery['status'] }) {
  return <Badge tone={DELIVERY_TONES[status] ?? 'slate'}>{DELIVERY_LABELS[status] ?? status}</Badge>;
}
