'use client';

import { useState } from 'react';
import { Alert, LoadingState, PageHeader } from '@/components/ui/feedback';
import { MessageStatusBadge } from '@/components/ui/message-status-badge';
import { useMessage, useMessageEvents } from '@/lib/client/queries';

// The preview comes from /internal/.../preview with a Content-Security-Policy header (no remote
// loads, no scripts) and sits in a sandboxed frame, so opening a message never tells its sender.

export function MessageDetailView({ accountId, messageId }: { accountId: string; messageId: string }) {
  const message = useMessage(accountId, messageId);
  const timeline = useMessageEvents(accountId, messageId);
  const [tab, setTab] = useState<'preview' | 'text' | 'headers' | 'source'>('preview');
  if (message.isPending) return <LoadingState label="Loading message…" />;
  if (message.error) return <Alert tone="error" title="This message could not be shown">{message.error.message}</Alert>;
  const data = message.data;
  const html = data.content_parsed?.parts.find((part) => part.content_type === 'text/html')?.content;
  const text = data.content_parsed?.parts.find((part) => part.content_type === 'text/plain')?.content;
  const facts: [string, string][] = [
    ['From', data.sender],
    ['To', data.recipient],
    ['Message-ID', data.message_id],
    ['Accepted', new Date(data.created_at).toLocaleString()],
    ['Delivered', data.delivered_at ? new Date(data.delivered_at).toLocaleString() : '—'],
    ['Attempts', String(data.num_attempts)],
    ['Opens / clicks', `${data.open_count} / ${data.click_count}`],
    ['Tags', data.tags.join(', ') || '—'],
    ['Kept until', new Date(data.retain_until).toLocaleString()],
  ];
  return (
    <>
      <PageHeader title={data.subject || '(no subject)'} description={<MessageStatusBadge status={data.status} />} />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          {data.status.startsWith('Sandbox') ? (
            <Alert tone="warning" title="Sandbox message">It went through every step but delivery: nothing left the server.</Alert>
          ) : null}
          <section className="rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
            <div role="tablist" aria-label="Message content" className="flex gap-1 border-b border-slate-200 px-3 pt-2">
              {(['preview', 'text', 'headers', 'source'] as const).map((name) => (
                <button key={name} role="tab" type="button" aria-selected={tab === name} onClick={() => setTab(name)} className={`rounded-t-md px-3 py-2 text-sm capitalize ${tab === name ? 'bg-slate-100 font-medium' : 'text-slate-600 hover:bg-slate-50'}`}>
                  {name === 'preview' ? 'HTML preview' : name}
                </button>
              ))}
            </div>
            <div className="p-4" role="tabpanel">
              {!data.content ? <p className="text-sm text-slate-600">The content of this message is no longer kept (data retention). Its status and history remain.</p> : null}
              {data.content && tab === 'preview' ? (
                html ? (
                  <iframe
                    title="HTML preview"
                    sandbox=""
                    src={`/internal/accounts/${accountId}/messages/${encodeURIComponent(messageId)}/preview`}
                    className="h-[28rem] w-full rounded border border-slate-200 bg-white"
                  />
                ) : (
                  <p className="text-sm text-slate-600">This message has no HTML part.</p>
                )
              ) : null}
              {data.content && tab === 'text' ? <pre className="whitespace-pre-wrap text-sm">{text ?? 'This message has no text part.'}</pre> : null}
              {data.content && tab === 'headers' ? (
                <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-xs">
                  {Object.entries(data.content_parsed?.headers ?? {}).map(([name, values]) => (
                    <div key={name} className="contents">
                      <dt className="font-mono font-semibold">{name}</dt>
                      <dd className="break-all font-mono">{values.join(' | ')}</dd>
                    </div>
                  ))}
                </dl>
              ) : null}
              {data.content && tab === 'source' ? <pre className="max-h-[32rem] overflow-auto whitespace-pre-wrap break-all rounded bg-slate-900 p-3 text-xs text-slate-100">{data.content}</pre> : null}
            </div>
          </section>
        </div>
        <div className="space-y-6">
          <section className="rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <dl className="space-y-2 text-sm">
              {facts.map(([label, value]) => (
                <div key={label}>
                  <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
                  <dd className="break-all">{value}</dd>
                </div>
              ))}
            </dl>
          </section>
          <section aria-labelledby="timeline-heading" className="rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <h2 id="timeline-heading" className="mb-3 text-base font-semibold">Timeline</h2>
            <ol className="space-y-3 border-l border-slate-200 pl-4 text-sm" data-testid="message-timeline">
              {(timeline.data?.data ?? []).map((event) => (
                <li key={event.id}>
                  <p className="font-medium">{event.type.replace('message.', '').replace('_', ' ')}</p>
                  <p className="text-xs text-slate-500">{new Date(event.created_at).toLocaleString()}</p>
                  {typeof event.payload.response === 'string' ? <p className="mt-1 break-all font-mono text-xs text-slate-700">{event.payload.response}</p> : null}
                  {typeof event.payload.url === 'string' ? <p className="mt-1 break-all text-xs text-slate-700">{event.payload.url}</p> : null}
                </li>
              ))}
            </ol>
          </section>
        </div>
      </div>
    </>
  );
}
