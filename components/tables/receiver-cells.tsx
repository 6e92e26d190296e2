import { WebhookStatusBadge } from '@/components/ui/webhook-status-badge';
import { formatCount, formatDateTime } from '@/lib/client/format';
import type { RouteObject, WebhookObject } from '@/lib/client/types';

type Receiver = WebhookObject | RouteObject;

/** Enabled or not, and why Mailstead turned it off when it did. */
export function ReceiverStatus({ receiver }: { receiver: Receiver }) {
  return (
    <>
      <WebhookStatusBadge webhook={receiver} />
      {!receiver.enabled && receiver.disabled_reason ? (
        <p className="mt-1 text-xs text-red-800 wrap-break-word" data-testid="disabled-reason">
          {receiver.disabled_reason}
        </p>
      ) : null}
    </>
  );
}

/** Its request counters and when it was last called. */
export function ReceiverRequests({ receiver }: { receiver: Receiver }) {
  return (
    <>
      <span className="tabular-nums">
        {formatCount(receiver.success_count)} ok · {formatCount(receiver.error_count)} failed
      </span>
      <span className="block text-slate-600">
        {receiver.last_request_at ? `Last ${formatDateTime(receiver.last_request_at)}` : 'No requests yet'}
      </span>
    </>
  );
}
