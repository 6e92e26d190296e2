'use client';

import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import { WebhookDeliveryStatusBadge } from '@/components/ui/webhook-status-badge';
import { formatCount, formatDateTime } from '@/lib/client/format';
import type { WebhookAttempt, WebhookDelivery } from '@/lib/client/types';
import { DataTable, type Column } from './data-table';

const BODY_PREVIEW = 120;

export const truncateBody = (body: string, length = BODY_PREVIEW) =>
  body.length > length ? `${body.slice(0, length)}…` : body;

/** "200 in 35 ms", or "Failed after 57 ms" when no HTTP answer came (the error says why: DNS, TLS, refused, timed out). */
export function describeAnswer(attempt: WebhookAttempt): string {
  const latency = `${formatCount(Math.round(attempt.latency_ms))} ms`;
  return attempt.response_status === null ? `Failed after ${latency}` : `${attempt.response_status} in ${latency}`;
}

/** The delivery log of one webhook, newest first: one row per event, with its latest attempt. */
export function WebhookDeliveryTable({
  deliveries,
  canResend,
  onOpen,
  onResend,
}: {
  deliveries: WebhookDelivery[];
  canResend: boolean;
  onOpen: (delivery: WebhookDelivery) => void;
  onResend: (delivery: WebhookDelivery) => void;
}) {
  const columns: Column<WebhookDelivery>[] = [
    {
      key: 'time',
      header: 'Time',
      className: 'text-xs text-slate-600 lg:whitespace-nowrap lg:text-sm',
      cell: (delivery) => formatDateTime(delivery.last_attempt?.at ?? delivery.created_at),
    },
    {
      key: 'event',
      header: 'Event',
      cardLabel: true,
      className: 'font-mono text-xs',
      cell: (delivery) => (
        <>
          {delivery.event_type}
          {delivery.is_test ? (
            <span className="ml-2 font-sans">
              <Badge tone="blue">Test</Badge>
            </span>
          ) : null}
        </>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      cardLabel: true,
      className: 'lg:whitespace-nowrap',
      cell: (delivery) => (
        <>
          <WebhookDeliveryStatusBadge status={delivery.status} />
          <span className="ml-2 text-xs text-slate-600">
            {formatCount(delivery.attempts)} attempt{delivery.attempts === 1 ? '' : 's'}
          </span>
          {delivery.next_attempt_at ? (
            <span className="block text-xs text-slate-600">Next {formatDateTime(delivery.next_attempt_at)}</span>
          ) : null}
        </>
      ),
    },
    {
      key: 'answer',
      header: 'Last answer',
      cardLabel: true,
      className: 'text-xs tabular-nums lg:whitespace-nowrap',
      cellAttributes: () => ({ 'data-testid': 'delivery-answer' }),
      cell: (delivery) => (delivery.last_attempt ? describeAnswer(delivery.last_attempt) : 'Not sent yet'),
    },
    {
      key: 'response',
      header: 'Error or response',
      cardLabel: true,
      className: 'lg:max-w-xs',
      cell: ({ last_attempt: last }) => (
        <>
          {last?.error ? <p className="text-xs text-red-800 wrap-anywhere">{last.error}</p> : null}
          {last?.response_body ? (
            <p className="font-mono text-xs text-slate-700 wrap-anywhere">{truncateBody(last.response_body)}</p>
          ) : null}
          {last && !last.error && !last.response_body ? <p className="text-xs text-slate-500">Empty response</p> : null}
        </>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      className: 'lg:whitespace-nowrap lg:text-right',
      cell: (delivery) => (
        <>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => onOpen(delivery)}
            aria-label={`Details of ${delivery.event_type} at ${formatDateTime(delivery.created_at)}`}
          >
            Details
          </Button>
          {canResend && (delivery.status === 'delivered' || delivery.status === 'failed') ? (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => onResend(delivery)}
              aria-label={`Send ${delivery.event_type} at ${formatDateTime(delivery.created_at)} again`}
            >
              Send again
            </Button>
          ) : null}
        </>
      ),
    },
  ];
  return (
    <DataTable
      caption="Deliveries"
      columns={columns}
      rows={deliveries}
      rowKey={(delivery) => delivery.id}
      rowAttributes={(delivery) => ({
        'data-delivery-row': delivery.event_type,
        'data-delivery-status': delivery.status,
      })}
    />
  );
}
