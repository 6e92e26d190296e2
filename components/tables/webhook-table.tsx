'use client';

import Link from 'next/link';
import { Button } from '@/components/ui/button';
import type { WebhookObject } from '@/lib/client/types';
import { WEBHOOK_EVENTS } from '@/lib/client/webhook-events';
import { DataTable, type Column, type TableState } from './data-table';
import { ReceiverRequests, ReceiverStatus } from './receiver-cells';

export function summarizeWebhookEvents(webhook: WebhookObject): string {
  const types = WEBHOOK_EVENTS.filter((event) => webhook[event.flag]).map((event) => event.type);
  if (types.length === WEBHOOK_EVENTS.length) return 'Every event';
  if (types.length === 0) return 'No events';
  return types.join(', ');
}

export function WebhookTable({
  accountId,
  webhooks,
  state,
  canEdit,
  canDelete,
  onTest,
  onEdit,
  onDelete,
}: {
  accountId: string;
  webhooks: WebhookObject[] | undefined;
  state?: TableState;
  canEdit: boolean;
  canDelete: boolean;
  onTest: (webhook: WebhookObject) => void;
  onEdit: (webhook: WebhookObject) => void;
  onDelete: (webhook: WebhookObject) => void;
}) {
  const columns: Column<WebhookObject>[] = [
    {
      key: 'webhook',
      header: 'Webhook',
      className: 'lg:max-w-xs lg:min-w-56',
      cell: (webhook) => (
        <>
          <Link
            href={`/${accountId}/webhooks/${webhook.id}`}
            className="font-medium text-brand-700 wrap-break-word hover:underline"
          >
            {webhook.name}
          </Link>
          <p className="font-mono text-xs text-slate-600 wrap-anywhere">{webhook.url}</p>
        </>
      ),
    },
    { key: 'status', header: 'Status', cardLabel: true, cell: (webhook) => <ReceiverStatus receiver={webhook} /> },
    {
      key: 'events',
      header: 'Events',
      cardLabel: true,
      className: 'text-xs text-slate-700 lg:max-w-56',
      cell: (webhook) => <span className="wrap-break-word">{summarizeWebhookEvents(webhook)}</span>,
    },
    {
      key: 'domains',
      header: 'Domains',
      cardLabel: true,
      className: 'text-xs text-slate-700',
      cell: (webhook) =>
        webhook.scope === 'global' ? (
          'All domains'
        ) : (
          <span className="wrap-anywhere">{webhook.domains.join(', ')}</span>
        ),
    },
    {
      key: 'requests',
      header: 'Requests',
      cardLabel: true,
      className: 'text-xs text-slate-700 lg:whitespace-nowrap',
      cell: (webhook) => <ReceiverRequests receiver={webhook} />,
    },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      className: 'lg:whitespace-nowrap lg:text-right',
      cell: (webhook) => (
        <>
          {canEdit ? (
            <>
              <Button
                variant="ghost"
                size="sm"
                onClick={() => onTest(webhook)}
                aria-label={`Send a test event to ${webhook.name}`}
              >
                Send test
              </Button>
              <Button variant="ghost" size="sm" onClick={() => onEdit(webhook)} aria-label={`Edit ${webhook.name}`}>
                Edit
              </Button>
            </>
          ) : null}
          {canDelete ? (
            <Button
              variant="ghost"
              size="sm"
              className="text-red-700"
              onClick={() => onDelete(webhook)}
              aria-label={`Delete ${webhook.name}`}
            >
              Delete
            </Button>
          ) : null}
        </>
      ),
    },
  ];
  return (
    <DataTable
      caption="Webhooks"
      columns={columns}
      rows={webhooks}
      rowKey={(webhook) => webhook.id}
      rowAttributes={(webhook) => ({ 'data-webhook-row': webhook.name })}
      {...state}
    />
  );
}
