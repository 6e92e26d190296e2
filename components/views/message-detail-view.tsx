'use client';

import Link from 'next/link';
import { mayOpen } from '@/components/layout/sections';
import { Alert, LoadingState, PageHeader } from '@/components/ui/feedback';
import { MessageStatusBadge } from '@/components/ui/message-status-badge';
import { base64Bytes, formatBytes } from '@/lib/client/format';
import { useCurrentUser, useMessage, useMessageDetails, useMessageEvents } from '@/lib/client/queries';
import { MessageContentPanel } from './message-content-panel';
import { MessageDeliveryPanel } from './message-delivery-panel';

export function MessageDetailView({ accountId, messageId }: { accountId: string; messageId: string }) {
  const message = useMessage(accountId, messageId);
  const details = useMessageDetails(accountId, messageId);
  const timeline = useMessageEvents(accountId, messageId);
  const me = useCurrentUser();
  const scopes = me.data?.accounts.find((account) => account.id === accountId)?.scopes ?? [];
  if (message.isPending) return <LoadingState label="Loading message…" />;
  if (message.error)
    return (
      <Alert tone="error" title="This message could not be shown">
        {message.error.message}
      </Alert>
    );
  const data = message.data;
  // The From header as sent names the sender (`News <news@example.com>`); the summary has only the address.
  const from = data.content_parsed?.headers.From?.[0] ?? data.sender;
  const attachments = data.content_parsed?.attachments ?? [];
  const facts: [string, string][] = [
    ['From', from],
    ['To', data.recipient],
    ['Message-ID', data.message_id],
    ['Accepted', new Date(data.created_at).toLocaleString()],
    ...(data.scheduled_for
      ? [['Scheduled for', new Date(data.scheduled_for).toLocaleString()] as [string, string]]
      : []),
    ['Delivered', data.delivered_at ? new Date(data.delivered_at).toLocaleString() : '—'],
    ['Attempts', String(data.num_attempts)],
    ['Opens / clicks', `${data.open_count} / ${data.click_count}`],
    ['Tags', data.tags.join(', ') || '—'],
    ['Kept until', new Date(data.retain_until).toLocaleString()],
  ];
  return (
    <>
      <PageHeader
        title={data.subject || '(no subject)'}
        description={<MessageStatusBadge status={data.status} isScheduled={data.scheduled_for !== null} />}
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          {data.status.startsWith('Sandbox') ? (
            <Alert tone="warning" title="Sandbox message">
              It went through every step but delivery: nothing left the server.
            </Alert>
          ) : null}
          {details.data ? (
            <MessageDeliveryPanel
              accountId={accountId}
              messageId={messageId}
              message={data}
              details={details.data}
              canCancel={mayOpen(scopes, 'messages:cancel')}
            />
          ) : null}
          <MessageContentPanel key={data.id} accountId={accountId} message={data} details={details.data} />
        </div>
        <div className="min-w-0 space-y-6">
          <section
            className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
            aria-label="Message facts"
          >
            <dl className="space-y-2 text-sm">
              {facts.map(([label, value]) => (
                <div key={label}>
                  <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</dt>
                  <dd className="wrap-anywhere">{value}</dd>
                </div>
              ))}
              {data.campaign_id ? (
                <div>
                  <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600">Campaign</dt>
                  <dd>
                    <Link
                      href={`/${accountId}/campaigns/${data.campaign_id}`}
                      className="font-medium text-brand-700 hover:underline"
                      data-testid="message-campaign-link"
                    >
                      Open the campaign
                    </Link>
                  </dd>
                </div>
              ) : null}
            </dl>
          </section>
          {data.content_parsed ? (
            <section
              aria-labelledby="attachments-heading"
              className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
            >
              <h2 id="attachments-heading" className="mb-3 text-base font-semibold">
                Attachments ({attachments.length})
              </h2>
              {attachments.length ? (
                <ul className="space-y-2 text-sm" data-testid="message-attachments">
                  {attachments.map((attachment, index) => (
                    <li
                      key={index}
                      className="flex flex-wrap justify-between gap-x-3"
                      data-attachment={attachment.filename}
                    >
                      <span className="min-w-0 font-medium wrap-anywhere">{attachment.filename || '(no name)'}</span>
                      <span className="text-xs text-slate-600">
                        {attachment.content_type} · {formatBytes(base64Bytes(attachment.content))}
                        {attachment.content_id ? ' · inline' : ''}
                      </span>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-slate-600">None.</p>
              )}
            </section>
          ) : null}
          <section
            aria-labelledby="timeline-heading"
            className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
          >
            <h2 id="timeline-heading" className="mb-3 text-base font-semibold">
              Timeline
            </h2>
            <ol className="space-y-3 border-l border-slate-200 pl-4 text-sm" data-testid="message-timeline">
              {(timeline.data?.data ?? []).map((event) => (
                <li key={event.id}>
                  <p className="font-medium">{event.type.replace('message.', '').replace('_', ' ')}</p>
                  <p className="text-xs text-slate-600">{new Date(event.created_at).toLocaleString()}</p>
                  {typeof event.payload.response === 'string' ? (
                    <p className="mt-1 font-mono text-xs text-slate-700 wrap-anywhere">{event.payload.response}</p>
                  ) : null}
                  {typeof event.payload.url === 'string' ? (
                    <p className="mt-1 text-xs text-slate-700 wrap-anywhere">{event.payload.url}</p>
                  ) : null}
                </li>
              ))}
            </ol>
          </section>
        </div>
      </div>
    </>
  );
}
