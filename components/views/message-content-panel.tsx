'use client';

import { useState } from 'react';
import { Alert } from '@/components/ui/feedback';
import type { MessageDetails, MessageObject } from '@/lib/client/types';

// The preview comes from /internal/.../preview with a Content-Security-Policy header (no remote
// loads, no scripts) and sits in a sandboxed frame, so opening a message never tells its sender.

const TABS = [
  { name: 'preview', label: 'HTML preview' },
  { name: 'text', label: 'Text' },
  { name: 'headers', label: 'Headers' },
  { name: 'source', label: 'Source' },
] as const;

type Tab = (typeof TABS)[number]['name'];

/** What the page's Source tab is, said plainly: the bytes sent are not kept for mail built from the API's fields. */
function SourceNote({ source, isTracked }: { source: MessageDetails['source']; isTracked: boolean }) {
  if (source === 'as_received') {
    return (
      <Alert tone="info" title="As submitted">
        This is the message as Mailstead received it. The copy that was delivered also carried the DKIM-Signature header
        added at sending.
      </Alert>
    );
  }
  return (
    <Alert tone="info" title="A reconstruction, not the bytes that were sent">
      Mailstead keeps what you sent it and builds the message again for this view. The delivered copy also carried a
      DKIM-Signature header and had different MIME boundaries
      {isTracked ? ', and its links and open pixel were rewritten for tracking' : ''}. Headers and bodies are otherwise
      the same.
    </Alert>
  );
}

export function MessageContentPanel({
  accountId,
  message,
  details,
}: {
  accountId: string;
  message: MessageObject;
  details: MessageDetails | undefined;
}) {
  const html = message.content_parsed?.parts.find((part) => part.content_type === 'text/html')?.content;
  const text = message.content_parsed?.parts.find((part) => part.content_type === 'text/plain')?.content;
  // Text-only mail opens on its text: an empty preview would say nothing.
  const [tab, setTab] = useState<Tab>(html === undefined && text !== undefined ? 'text' : 'preview');
  return (
    <section className="rounded-lg bg-white shadow-sm ring-1 ring-slate-200" aria-label="Message content">
      <div
        role="tablist"
        aria-label="Message content"
        className="flex gap-1 overflow-x-auto border-b border-slate-200 px-2 pt-2 sm:px-3"
      >
        {TABS.map(({ name, label }) => (
          <button
            key={name}
            id={`message-tab-${name}`}
            role="tab"
            type="button"
            aria-selected={tab === name}
            aria-controls="message-tab-panel"
            onClick={() => setTab(name)}
            className={`shrink-0 rounded-t-md px-3 py-2 text-sm ${tab === name ? 'bg-slate-100 font-medium' : 'text-slate-700 hover:bg-slate-50'}`}
          >
            {label}
          </button>
        ))}
      </div>
      <div className="p-3 sm:p-4" role="tabpanel" id="message-tab-panel" aria-labelledby={`message-tab-${tab}`}>
        {!message.content ? (
          <p className="text-sm text-slate-600">
            The content of this message is no longer kept (data retention). Its status and history remain.
          </p>
        ) : null}
        {message.content && tab === 'preview' ? (
          html !== undefined ? (
            <iframe
              title="HTML preview"
              sandbox=""
              src={`/internal/accounts/${accountId}/messages/${encodeURIComponent(message.id)}/preview`}
              className="h-[28rem] w-full rounded border border-slate-200 bg-white"
            />
          ) : (
            <p className="text-sm text-slate-600">This message has no HTML part; its text is on the Text tab.</p>
          )
        ) : null}
        {message.content && tab === 'text' ? (
          <pre className="whitespace-pre-wrap text-sm wrap-anywhere">{text ?? 'This message has no text part.'}</pre>
        ) : null}
        {message.content && tab === 'headers' ? (
          <dl className="grid gap-x-4 gap-y-1 text-xs sm:grid-cols-[max-content_1fr]">
            {Object.entries(message.content_parsed?.headers ?? {}).map(([name, values]) => (
              <div key={name} className="contents">
                <dt className="font-mono font-semibold">{name}</dt>
                <dd className="mb-2 font-mono wrap-anywhere sm:mb-0">{values.join(' | ')}</dd>
              </div>
            ))}
          </dl>
        ) : null}
        {message.content && tab === 'source' ? (
          <div className="space-y-3">
            {details?.source ? <SourceNote source={details.source} isTracked={details.is_tracked} /> : null}
            <pre
              className="max-h-[32rem] overflow-auto whitespace-pre-wrap rounded bg-slate-900 p-3 text-xs text-slate-100 wrap-anywhere"
              data-testid="message-source"
            >
              {message.content}
            </pre>
          </div>
        ) : null}
      </div>
    </section>
  );
}
