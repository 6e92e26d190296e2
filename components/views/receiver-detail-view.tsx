'use client';

import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import { WebhookDeliveryDialog } from '@/components/dialogs/webhook-delivery-dialog';
import { WebhookDeliveryTable } from '@/components/tables/webhook-delivery-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { TestOutcomeAlert, type TestOutcome } from '@/components/ui/test-outcome-alert';
import { WebhookStatusBadge } from '@/components/ui/webhook-status-badge';
import { ApiError } from '@/lib/client/api';
import { useDeliveries, useResendDelivery } from '@/lib/client/delivery-queries';
import { formatCount, formatDateTime } from '@/lib/client/format';
import type { RouteObject, WebhookObject } from '@/lib/client/types';

/** A route and a webhook are both receivers: an endpoint Mailstead POSTs to, with one delivery log. */
type Receiver = RouteObject | WebhookObject;
type Kind = 'route' | 'webhook';

/** The only words that differ between the two: what is sent, and what the test button sends. */
const WORDS = {
  route: {
    noun: 'route',
    title: 'Route',
    plural: 'routes',
    item: 'message',
    items: 'Messages',
    test: 'Send a test',
    on: 'matching mail is sent to it again',
    off: 'mail is not sent to it',
  },
  webhook: {
    noun: 'webhook',
    title: 'Webhook',
    plural: 'webhooks',
    item: 'event',
    items: 'Events',
    test: 'Send test event',
    on: 'new events are sent to it again',
    off: 'events are not sent to it',
  },
} as const;

export type ReceiverDialog = 'edit' | 'delete' | 'test' | null;

export type ReceiverDialogProps = {
  dialog: ReceiverDialog;
  onClose: () => void;
  onSaved: () => void;
  onTestSent: (outcome: TestOutcome) => void;
};

/**
 * A route's or a webhook's page: its state (and why Mailstead turned it off), its settings, and its
 * delivery log. `facts` are what differs (a route's inbound address, a webhook's event types);
 * `dialogs` renders the kind's own edit, delete and test dialogs.
 */
export function ReceiverDetailView<R extends Receiver>({
  accountId,
  kind,
  id,
  query,
  facts,
  canWrite,
  canDelete,
  toggle,
  dialogs,
}: {
  accountId: string;
  kind: Kind;
  id: string;
  query: { isPending: boolean; error: Error | null; data: R | undefined };
  facts: (receiver: R) => [string, ReactNode][];
  canWrite: boolean;
  canDelete: boolean;
  toggle: { isPending: boolean; error: Error | null; setEnabled: (enabled: boolean, onSuccess: () => void) => void };
  dialogs: (props: ReceiverDialogProps) => ReactNode;
}) {
  const words = WORDS[kind];
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1) ?? null;
  const target = { kind, id };
  const deliveries = useDeliveries(accountId, target, cursor, { refetchInterval: cursor === null ? 5000 : undefined });
  const resend = useResendDelivery(accountId, target);
  const [openDelivery, setOpenDelivery] = useState<string | null>(null);
  const [dialog, setDialog] = useState<ReceiverDialog>(null);
  const [notice, setNoticeText] = useState<string | null>(null);
  const [testOutcome, setTestOutcome] = useState<TestOutcome | null>(null);
  // One banner at a time: a newer notice replaces the outcome of an earlier test.
  const setNotice = (text: string | null) => {
    setTestOutcome(null);
    setNoticeText(text);
  };
  const [resendError, setResendError] = useState<string | null>(null);

  // Enabling it again also clears Mailstead's failure count, so it gets a fresh run.
  const setEnabled = (enabled: boolean) => {
    setNotice(null);
    toggle.setEnabled(enabled, () =>
      setNotice(enabled ? `${words.title} enabled: ${words.on}.` : `${words.title} disabled: ${words.off}.`),
    );
  };

  const sendAgain = (deliveryId: string) => {
    setResendError(null);
    resend.mutate(deliveryId, {
      onSuccess: (result) => {
        setNotice(
          result?.message
            ? `Sent again: ${result.message}`
            : 'Sent again: the new attempt shows in the log in a moment.',
        );
        setOpenDelivery(null);
        setCursors([]);
      },
      onError: (error) => setResendError(error.message),
    });
  };

  if (query.isPending) return <LoadingState label={`Loading ${words.noun}…`} />;
  if (query.error || !query.data) {
    const status = query.error instanceof ApiError ? query.error.status : null;
    return (
      <Alert
        tone={status === 403 || status === 404 ? 'warning' : 'error'}
        title={status === 403 ? `You cannot view this ${words.noun}` : `This ${words.noun} could not be shown`}
      >
        {query.error?.message}{' '}
        <Link href={`/${accountId}/${words.plural}`} className="font-medium underline">
          All {words.plural}
        </Link>
      </Alert>
    );
  }
  const data = query.data;
  const allFacts: [string, ReactNode][] = [
    [
      'URL',
      <span key="url" className="font-mono text-xs wrap-anywhere">
        {data.url}
      </span>,
    ],
    ...facts(data),
    [
      'Requests',
      `${formatCount(data.success_count)} succeeded · ${formatCount(data.error_count)} failed · ${formatCount(data.errors_since_last_success)} failures in a row`,
    ],
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
            <Link href={`/${accountId}/${words.plural}`} className="text-brand-700 hover:underline">
              All {words.plural}
            </Link>
          </span>
        }
        actions={
          <>
            {canWrite ? (
              <>
                <Button onClick={() => setDialog('test')}>{words.test}</Button>
                <Button variant="secondary" isBusy={toggle.isPending} onClick={() => setEnabled(!data.enabled)}>
                  {data.enabled ? 'Disable' : 'Enable'}
                </Button>
                <Button variant="secondary" onClick={() => setDialog('edit')}>
                  Edit
                </Button>
              </>
            ) : null}
            {canDelete ? (
              <Button variant="secondary" className="text-red-700" onClick={() => setDialog('delete')}>
                Delete
              </Button>
            ) : null}
          </>
        }
      />
      <div className="space-y-6">
        {testOutcome ? <TestOutcomeAlert outcome={testOutcome} /> : null}
        {notice ? (
          <div data-testid={`${kind}-notice`}>
            <Alert tone="success">{notice}</Alert>
          </div>
        ) : null}
        {resendError && !openDelivery ? (
          <Alert tone="error" title="Could not send again">
            {resendError}
          </Alert>
        ) : null}
        {toggle.error ? (
          <Alert tone="error" title={`Could not change the ${words.noun}`}>
            {toggle.error.message}
          </Alert>
        ) : null}
        {!data.enabled && data.disabled_reason ? (
          <Alert
            tone="error"
            title={`Mailstead turned this ${words.noun} off${data.disabled_at ? ` on ${formatDateTime(data.disabled_at)}` : ''}`}
          >
            <p data-testid="disabled-reason">{data.disabled_reason}</p>
            <p className="mt-1">
              Nothing is sent to it until someone enables it again. Fix the endpoint first: the log below shows what it
              answered.
            </p>
          </Alert>
        ) : null}
        {!data.enabled && !data.disabled_reason ? (
          <Alert tone="info">
            This {words.noun} is disabled: {words.off}.
          </Alert>
        ) : null}
        <section
          aria-label={`${words.title} settings`}
          className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
        >
          <dl className="grid gap-3 text-sm sm:grid-cols-2">
            {allFacts.map(([label, value]) => (
              <div key={label} className="min-w-0">
                <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</dt>
                <dd className="wrap-break-word" data-fact={label}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
        </section>
        <section aria-labelledby="log-heading" className="space-y-3">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="log-heading" className="text-base font-semibold">
              Delivery log
            </h2>
            <p className="text-xs text-slate-600">
              Newest first{cursor === null ? ', updated every few seconds' : ''}. Each {words.item} is retried on
              failure with growing pauses.
            </p>
          </div>
          {deliveries.isPending ? <LoadingState label="Loading deliveries…" /> : null}
          {deliveries.error ? (
            <Alert tone="error" title="The delivery log could not be loaded">
              {deliveries.error.message}
            </Alert>
          ) : null}
          {deliveries.data && list.length === 0 ? (
            <EmptyState title={cursor ? 'No older deliveries' : 'No deliveries yet'}>
              {canWrite
                ? `${words.test} to see what your endpoint answers.`
                : `${words.items} appear here as Mailstead sends them to this ${words.noun}.`}
            </EmptyState>
          ) : null}
          {list.length > 0 ? (
            <WebhookDeliveryTable
              deliveries={list}
              canResend={canWrite}
              onOpen={(delivery) => {
                setResendError(null);
                setOpenDelivery(delivery.id);
              }}
              onResend={(delivery) => sendAgain(delivery.id)}
            />
          ) : null}
          <div className="flex justify-end gap-2">
            <Button
              variant="secondary"
              disabled={cursors.length === 0}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              Newer
            </Button>
            <Button
              variant="secondary"
              disabled={!deliveries.data?.pagination.has_more}
              onClick={() =>
                deliveries.data?.pagination.next_cursor &&
                setCursors([...cursors, deliveries.data.pagination.next_cursor])
              }
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
        canResend={canWrite}
        isResending={resend.isPending}
        resendError={openDelivery ? resendError : null}
        onResend={sendAgain}
        onClose={() => setOpenDelivery(null)}
      />
      {dialogs({
        dialog,
        onClose: () => setDialog(null),
        onSaved: () => setNotice(`${words.title} saved.`),
        onTestSent: (outcome) => {
          setNotice(null);
          setTestOutcome(outcome);
          setCursors([]);
        },
      })}
    </>
  );
}
