'use client';

import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { WebhookStatusBadge } from '@/components/ui/webhook-status-badge';
import { formatCount, formatDateTime } from '@/lib/client/format';
import type { WebhookObject } from '@/lib/client/types';
import { WEBHOOK_EVENTS } from '@/lib/client/webhook-events';
import { CellLabel, STACKED } from './stacked-table';

export function summarizeWebhookEvents(webhook: WebhookObject): string {
  const types = WEBHOOK_EVENTS.filter((event) => webhook[event.flag]).map((event) => event.type);
  if (types.length === WEBHOOK_EVENTS.length) return 'Every event';
  if (types.length === 0) return 'No events';
  return types.join(', ');
}

export function WebhookTable({
  accountId,
  webhooks,
  canEdit,
  canDelete,
  onTest,
  onEdit,
  onDelete,
}: {
  accountId: string;
  webhooks: WebhookObject[];
  canEdit: boolean;
  canDelete: boolean;
  onTest: (webhook: WebhookObject) => void;
  onEdit: (webhook: WebhookObject) => void;
  onDelete: (webhook: WebhookObject) => void;
}) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Webhook</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Status</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Events</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Domains</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Requests</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {webhooks.map((webhook) => (
            <tr key={webhook.id} data-webhook-row={webhook.name} className={STACKED.row} role="row">
              <td className={`${STACKED.cell} lg:max-w-xs lg:min-w-56`} role="cell">
                <Link href={`/${accountId}/webhooks/${webhook.id}`} className="font-medium text-brand-700 wrap-break-word hover:underline">
                  {webhook.name}
                </Link>
                <p className="font-mono text-xs text-slate-600 wrap-anywhere">{webhook.url}</p>
              </td>
              <td className={STACKED.cell} role="cell">
                <CellLabel>Status</CellLabel>
                <WebhookStatusBadge webhook={webhook} />
                {!webhook.enabled && webhook.disabled_reason ? <p className="mt-1 text-xs text-red-800 wrap-break-word" data-testid="disabled-reason">{webhook.disabled_reason}</p> : null}
              </td>
              <td className={`${STACKED.cell} text-xs text-slate-700 lg:max-w-56`} role="cell">
                <CellLabel>Events</CellLabel>
                <span className="wrap-break-word">{summarizeWebhookEvents(webhook)}</span>
              </td>
              <td className={`${STACKED.cell} text-xs text-slate-700`} role="cell">
                <CellLabel>Domains</CellLabel>
                {webhook.scope === 'global' ? 'All domains' : <span className="wrap-anywhere">{webhook.domains.join(', ')}</span>}
              </td>
              <td className={`${STACKED.cell} text-xs text-slate-700 lg:whitespace-nowrap`} role="cell">
                <CellLabel>Requests</CellLabel>
                <span className="tabular-nums">
                  {formatCount(webhook.success_count)} ok · {formatCount(webhook.error_count)} failed
                </span>
                <span className="block text-slate-600">{webhook.last_request_at ? `Last ${formatDateTime(webhook.last_request_at)}` : 'No requests yet'}</span>
              </td>
              <td className={`${STACKED.cell} lg:whitespace-nowrap lg:text-right`} role="cell">
                {canEdit ? (
                  <>
                    <Button variant="ghost" size="sm" onClick={() => onTest(webhook)} aria-label={`Send a test event to ${webhook.name}`}>
                      Send test
                    </Button>
                    <Button variant="ghost" size="sm" onClick={() => onEdit(webhook)} aria-label={`Edit ${webhook.name}`}>
                      Edit
                    </Button>
                  </>
                ) : null}
                {canDelete ? (
                  <Button variant="ghost" size="sm" className="text-red-700" onClick={() => onDelete(webhook)} aria-label={`Delete ${webhook.name}`}>
                    Delete
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
