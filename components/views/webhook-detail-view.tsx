'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { WebhookDeliveryDialog } from '@/components/dialogs/webhook-delivery-dialog';
import { DeleteWebhookDialog, EditWebhookDialog, TestWebhookDialog } from '@/components/dialogs/webhook-dialogs';
import { summarizeWebhookEvents } from '@/components/tables/webhook-table';
import { WebhookDeliveryTable } from '@/components/tables/webhook-delivery-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { WebhookStatusBadge } from '@/components/ui/webhook-status-badge';
import { ApiError } from '@/lib/client/api';
import { useDeliveries, useResendDelivery } from '@/lib/client/delivery-queries';
import { formatCount, formatDateTime } from '@/lib/client/format';
import { useDomains } from '@/lib/client/queries';
import { useUpdateWebhook, useWebhook } from '@/lib/client/webhook-queries';
import { useWebhookPermissions } from './webhooks-view';

/** A webhook: its settings, its state (and why Mailstead turned it off), and its delivery log. */
export function WebhookDetailView({ accountId, webhookId }: { accountId: string; webhookId: string }) {
  const router = useRouter();
  const webhook = useWebhook(accountId, webhookId);
  const can = useWebhookPermissions(accountId);
  const domains = useDomains(accountId, { enabled: can.isLoaded && can.canListDomains && can.canWrite });
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1) ?? null;
  const target = { kind: 'webhook', id: webhookId } as const;
  const deliveries = useDeliveries(accountId, target, cursor, {
    refetchInterval: cursor === null ? 5000 : undefined,
  });
  const resend = useResendDelivery(accountId, target);
  const toggle = useUpdateWebhook(accountId);
  const [openDelivery, setOpenDelivery] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'edit' | 'delete' | 'test' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [resendError, setResendError] = useState<string | null>(null);

  // Turning a webhook back on also clears Mailstead's failure count, so it gets a fresh run.
  const setEnabled = (enabled: boolean) => {
    setNotice(null);
    toggle.mutate(
      { id: webhookId, enabled },
      { onSuccess: () => setNotice(enabled ? 'Webhook turned on: new events are sent to it again.' : 'Webhook turned off: events are not sent to it.') },
    );
  };

  const sendAgain = (deliveryId: string) => {
    setResendError(null);
    resend.mutate(deliveryId, {
      onSuccess: (result) => {
        setNotice(result?.message ? `Sent again: ${result.message}` : 'Sent again: the new attempt shows in the log in a moment.');
        setOpenDelivery(null);
        setCursors([]);
      },
      onError: (error) => setResendError(error.message),
    });
  };

  if (webhook.isPending) return <LoadingState label="Loading webhook…" />;
  if (webhook.error) {
    const isForbidden = webhook.error instanceof ApiError && webhook.error.status === 403;
    return (
      <Alert tone={isForbidden || (webhook.error instanceof ApiError && webhook.error.status === 404) ? 'warning' : 'error'} title={isForbidden ? 'You cannot view this webhook' : 'This webhook could not be shown'}>
        {webhook.error.message}{' '}
        <Link href={`/${accountId}/webhooks`} className="font-medium underline">
          All webhooks
        </Link>
      </Alert>
    );
  }
  const data = webhook.data;
  const facts: [string, ReactNode][] = [
    ['URL', <span key="url" className="font-mono text-xs wrap-anywhere">{data.url}</span>],
    ['Events', summarizeWebhookEvents(data)],
    ['Domains', data.scope === 'global' ? 'All domains of the account' : data.domains.join(', ')],
    ['Requests', `${formatCount(data.success_count)} succeeded · ${formatCount(data.error_count)} failed · ${formatCount(data.errors_since_last_success)} failures in a row`],
    ['Last request', data.last_request_at ? formatDateTime(data.last_request_at) : 'None yet'],
    ['Created', formatDateTime(data.created_at)],
  ];
  const list = deliveries.data?.data ?? [];

  return (
    <>
      <PageHeader
        title={data.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <WebhookStatusBadge webhook={data} />
            <Link href={`/${accountId}/webhooks`} className="text-brand-700 hover:underline">
              All webhooks
            </Link>
          </span>
        }
        actions={
          <>
            {can.canWrite ? (
              <>
                <Button onClick={() => setDialog('test')}>Send test event</Button>
                <Button variant="secondary" isBusy={toggle.isPending} onClick={() => setEnabled(!data.enabled)}>
                  {data.enabled ? 'Turn off' : 'Turn on'}
                </Button>
                <Button variant="secondary" onClick={() => setDialog('edit')}>
                  Edit
                </Button>
              </>
            ) : null}
            {can.canDelete ? (
              <Button variant="secondary" className="text-red-700" onClick={() => setDialog('delete')}>
                Delete
              </Button>
            ) : null}
          </>
        }
      />
      <div className="space-y-6">
        {notice ? (
          <div data-testid="webhook-notice">
            <Alert tone="success">{notice}</Alert>
          </div>
        ) : null}
        {resendError && !openDelivery ? <Alert tone="error" title="Could not send again">{resendError}</Alert> : null}
        {toggle.error ? <Alert tone="error" title="Could not change the webhook">{toggle.error.message}</Alert> : null}
        {!data.enabled && data.disabled_reason ? (
          <Alert tone="error" title={`Mailstead turned this webhook off${data.disabled_at ? ` on ${formatDateTime(data.disabled_at)}` : ''}`}>
            <p data-testid="disabled-reason">{data.disabled_reason}</p>
            <p className="mt-1">Nothing is sent to it until someone turns it on again (Turn on). Fix the endpoint first: the log below shows what it answered.</p>
          </Alert>
        ) : null}
        {!data.enabled && !data.disabled_reason ? <Alert tone="info">This webhook is disabled: events are not sent to it.</Alert> : null}
        <section aria-label="Webhook settings" className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
          <dl className="grid gap-3 text-sm sm:grid-cols-2">
            {facts.map(([label, value]) => (
              <div key={label} className="min-w-0">
                <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</dt>
                <dd className="wrap-break-word">{value}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section aria-labelledby="log-heading" className="space-y-3">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="log-heading" className="text-base font-semibold">
              Delivery log
            </h2>
            <p className="text-xs text-slate-600">Newest first{cursor === null ? ', updated every few seconds' : ''}. Each event is retried on failure with growing pauses.</p>
          </div>
          {deliveries.isPending ? <LoadingState label="Loading deliveries…" /> : null}
          {deliveries.error ? <Alert tone="error" title="The delivery log could not be loaded">{deliveries.error.message}</Alert> : null}
          {deliveries.data && list.length === 0 ? (
            <EmptyState title={cursor ? 'No older deliveries' : 'No deliveries yet'}>
              {can.canWrite ? 'Send a test event to see what your endpoint answers.' : 'Events appear here as Mailstead sends them to this webhook.'}
            </EmptyState>
          ) : null}
          {list.length > 0 ? (
            <WebhookDeliveryTable
              deliveries={list}
              canResend={can.canWrite}
              onOpen={(delivery) => {
                setResendError(null);
                setOpenDelivery(delivery.id);
              }}
              onResend={(delivery) => sendAgain(delivery.id)}
            />
          ) : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
              Newer
            </Button>
            <Button
              variant="secondary"
              disabled={!deliveries.data?.pagination.has_more}
              onClick={() => deliveries.data?.pagination.next_cursor && setCursors([...cursors, deliveries.data.pagination.next_cursor])}
            >
              Older
            </Button>
          </div>
        </section>
      </div>

      <WebhookDeliveryDialog
        accountId={accountId}
        target={target}
        deliveryId={openDelivery}
        canResend={can.canWrite}
        isResending={resend.isPending}
        resendError={openDelivery ? resendError : null}
        onResend={sendAgain}
        onClose={() => setOpenDelivery(null)}
      />
      <EditWebhookDialog
        accountId={accountId}
        webhook={dialog === 'edit' ? data : null}
        domains={can.canListDomains ? (domains.data?.data.map((domain) => domain.domain) ?? []) : null}
        canChooseGlobal={can.canChooseGlobal}
        onClose={() => setDialog(null)}
        onSaved={() => setNotice('Webhook saved.')}
      />
      <DeleteWebhookDialog accountId={accountId} webhook={dialog === 'delete' ? data : null} onClose={() => setDialog(null)} onDeleted={() => router.push(`/${accountId}/webhooks`)} />
      <TestWebhookDialog
        accountId={accountId}
        webhook={dialog === 'test' ? data : null}
        onClose={() => setDialog(null)}
        onSent={(text) => {
          setNotice(text);
          setCursors([]);
        }}
      />
    </>
  );
}
