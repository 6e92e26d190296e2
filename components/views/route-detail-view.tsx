'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { DeleteRouteDialog, EditRouteDialog, TestRouteDialog, describeRecipient } from '@/components/dialogs/route-dialogs';
import { WebhookDeliveryDialog } from '@/components/dialogs/webhook-delivery-dialog';
import { WebhookDeliveryTable } from '@/components/tables/webhook-delivery-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { WebhookStatusBadge } from '@/components/ui/webhook-status-badge';
import { ApiError } from '@/lib/client/api';
import { useDeliveries, useResendDelivery } from '@/lib/client/delivery-queries';
import { formatCount, formatDateTime } from '@/lib/client/format';
import { useRoute, useUpdateRoute } from '@/lib/client/route-queries';
import { useRouteDomainNames, useRoutePermissions } from './routes-view';

/** A route: its settings, its state (and why Mailstead turned it off), and its delivery log. */
export function RouteDetailView({ accountId, routeId }: { accountId: string; routeId: string }) {
  const router = useRouter();
  const route = useRoute(accountId, routeId);
  const can = useRoutePermissions(accountId);
  const domainNames = useRouteDomainNames(accountId, can);
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1) ?? null;
  const target = { kind: 'route', id: routeId } as const;
  const deliveries = useDeliveries(accountId, target, cursor, { refetchInterval: cursor === null ? 5000 : undefined });
  const resend = useResendDelivery(accountId, target);
  const toggle = useUpdateRoute(accountId);
  const [openDelivery, setOpenDelivery] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'edit' | 'delete' | 'test' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [resendError, setResendError] = useState<string | null>(null);

  // Enabling a route again also clears Mailstead's failure count, so it gets a fresh run.
  const setEnabled = (enabled: boolean) => {
    setNotice(null);
    toggle.mutate({ id: routeId, enabled }, { onSuccess: () => setNotice(enabled ? 'Route enabled: matching mail is sent to it again.' : 'Route disabled: mail is not sent to it.') });
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

  if (route.isPending) return <LoadingState label="Loading route…" />;
  if (route.error) {
    const status = route.error instanceof ApiError ? route.error.status : null;
    return (
      <Alert tone={status === 403 || status === 404 ? 'warning' : 'error'} title={status === 403 ? 'You cannot view this route' : 'This route could not be shown'}>
        {route.error.message}{' '}
        <Link href={`/${accountId}/routes`} className="font-medium underline">
          All routes
        </Link>
      </Alert>
    );
  }
  const data = route.data;
  const options = [data.attachments && 'attachments', data.headers && 'headers', data.group_by_message_id && 'one request per message', data.strip_replies && 'quoted replies stripped'].filter(Boolean);
  const facts: [string, ReactNode][] = [
    ['URL', <span key="url" className="font-mono text-xs wrap-anywhere">{data.url}</span>],
    ['Recipient', <span key="recipient" className="wrap-anywhere">{describeRecipient(data.recipient)}</span>],
    ['Payload', options.length ? options.join(', ') : 'Text and HTML bodies, no attachments or headers; one request per matching address'],
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
            <Link href={`/${accountId}/routes`} className="text-brand-700 hover:underline">
              All routes
            </Link>
          </span>
        }
        actions={
          <>
            {can.canWrite ? (
              <>
                <Button onClick={() => setDialog('test')}>Send a test</Button>
                <Button variant="secondary" isBusy={toggle.isPending} onClick={() => setEnabled(!data.enabled)}>
                  {data.enabled ? 'Disable' : 'Enable'}
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
          <div data-testid="route-notice">
            <Alert tone="success">{notice}</Alert>
          </div>
        ) : null}
        {resendError && !openDelivery ? <Alert tone="error" title="Could not send again">{resendError}</Alert> : null}
        {toggle.error ? <Alert tone="error" title="Could not change the route">{toggle.error.message}</Alert> : null}
        {!data.enabled && data.disabled_reason ? (
          <Alert tone="error" title={`Mailstead turned this route off${data.disabled_at ? ` on ${formatDateTime(data.disabled_at)}` : ''}`}>
            <p data-testid="disabled-reason">{data.disabled_reason}</p>
            <p className="mt-1">Nothing is sent to it until someone enables it again. Fix the endpoint first: the log below shows what it answered.</p>
          </Alert>
        ) : null}
        {!data.enabled && !data.disabled_reason ? <Alert tone="info">This route is disabled: mail is not sent to it.</Alert> : null}
        <section aria-label="Route settings" className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
          <dl className="grid gap-3 text-sm sm:grid-cols-2">
            {facts.map(([label, value]) => (
              <div key={label} className="min-w-0">
                <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</dt>
                <dd className="wrap-break-word" data-route-fact={label}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
        </section>
        <section aria-labelledby="log-heading" className="space-y-3">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="log-heading" className="text-base font-semibold">
              Deliveries
            </h2>
            <p className="text-xs text-slate-600">Newest first{cursor === null ? ', updated every few seconds' : ''}. Each message is retried on failure with growing pauses.</p>
          </div>
          {deliveries.isPending ? <LoadingState label="Loading deliveries…" /> : null}
          {deliveries.error ? <Alert tone="error" title="The deliveries could not be loaded">{deliveries.error.message}</Alert> : null}
          {deliveries.data && list.length === 0 ? (
            <EmptyState title={cursor ? 'No older deliveries' : 'No deliveries yet'}>
              {can.canWrite ? 'Send a test to see what your endpoint answers.' : 'Messages appear here as Mailstead sends them to this route.'}
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
      <EditRouteDialog accountId={accountId} route={dialog === 'edit' ? data : null} domains={domainNames} onClose={() => setDialog(null)} onSaved={() => setNotice('Route saved.')} />
      <DeleteRouteDialog accountId={accountId} route={dialog === 'delete' ? data : null} onClose={() => setDialog(null)} onDeleted={() => router.push(`/${accountId}/routes`)} />
      <TestRouteDialog
        accountId={accountId}
        route={dialog === 'test' ? data : null}
        onClose={() => setDialog(null)}
        onSent={(text) => {
          setNotice(text);
          setCursors([]);
        }}
      />
    </>
  );
}
