'use client';

import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import { WebhookDeliveryStatusBadge } from '@/components/ui/webhook-status-badge';
import { formatCount, formatDateTime } from '@/lib/client/format';
import type { WebhookAttempt, WebhookDelivery } from '@/lib/client/types';
import { CellLabel, STACKED } from './stacked-table';

const BODY_PREVIEW = 120;

export const truncateBody = (body: string, length = BODY_PREVIEW) => (body.length > length ? `${body.slice(0, length)}…` : body);

/** "200 in 35 ms", "no answer after 10,000 ms": what the endpoint said to one attempt. */
export function describeAnswer(attempt: WebhookAttempt): string {
  const latency = `${formatCount(Math.round(attempt.latency_ms))} ms`;
  return attempt.response_status === null ? `No answer after ${latency}` : `${attempt.response_status} in ${latency}`;
}

/** The delivery log of one webhook, newest first: one row per event, with its latest attempt. */
export function WebhookDeliveryTable({ deliveries, canResend, onOpen, onResend }: { deliveries: WebhookDelivery[]; canResend: boolean; onOpen: (delivery: WebhookDelivery) => void; onResend: (delivery: WebhookDelivery) => void }) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Time</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Event</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Status</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Last answer</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Error or response</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {deliveries.map((delivery) => {
            const last = delivery.last_attempt;
            return (
              <tr key={delivery.id} data-delivery-row={delivery.event_type} data-delivery-status={delivery.status} className={STACKED.row} role="row">
                <td className={`${STACKED.cell} text-xs text-slate-600 lg:whitespace-nowrap lg:text-sm`} role="cell">
                  {formatDateTime(last?.at ?? delivery.created_at)}
                </td>
                <td className={`${STACKED.cell} font-mono text-xs`} role="cell">
                  <CellLabel>Event</CellLabel>
                  {delivery.event_type}
                  {delivery.is_test ? (
                    <span className="ml-2 font-sans">
                      <Badge tone="blue">Test</Badge>
                    </span>
                  ) : null}
                </td>
                <td className={`${STACKED.cell} lg:whitespace-nowrap`} role="cell">
                  <CellLabel>Status</CellLabel>
                  <WebhookDeliveryStatusBadge status={delivery.status} />
                  <span className="ml-2 text-xs text-slate-600">
                    {formatCount(delivery.attempts)} attempt{delivery.attempts === 1 ? '' : 's'}
                  </span>
                  {delivery.next_attempt_at ? <span className="block text-xs text-slate-600">Next {formatDateTime(delivery.next_attempt_at)}</span> : null}
                </td>
                <td className={`${STACKED.cell} text-xs tabular-nums lg:whitespace-nowrap`} role="cell" data-testid="delivery-answer">
                  <CellLabel>Last answer</CellLabel>
                  {last ? describeAnswer(last) : 'Not sent yet'}
                </td>
                <td className={`${STACKED.cell} lg:max-w-xs`} role="cell">
                  <CellLabel>Error or response</CellLabel>
                  {last?.error ? <p className="text-xs text-red-800 wrap-anywhere">{last.error}</p> : null}
                  {last?.response_body ? <p className="font-mono text-xs text-slate-700 wrap-anywhere">{truncateBody(last.response_body)}</p> : null}
                  {last && !last.error && !last.response_body ? <p className="text-xs text-slate-500">Empty response</p> : null}
                </td>
                <td className={`${STACKED.cell} lg:whitespace-nowrap lg:text-right`} role="cell">
                  <Button variant="ghost" size="sm" onClick={() => onOpen(delivery)} aria-label={`Details of ${delivery.event_type} at ${formatDateTime(delivery.created_at)}`}>
                    Details
                  </Button>
                  {canResend && (delivery.status === 'delivered' || delivery.status === 'failed') ? (
                    <Button variant="ghost" size="sm" onClick={() => onResend(delivery)} aria-label={`Send ${delivery.event_type} at ${formatDateTime(delivery.created_at)} again`}>
                      Send again
                    </Button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
