import Link from 'next/link';
import { MessageStatusBadge } from '@/components/ui/message-status-badge';
import type { MessageObject } from '@/lib/client/types';

/** The latest messages, compact: status, recipient, subject (linked) and when. */
export function RecentMessageList({ accountId, messages }: { accountId: string; messages: MessageObject[] }) {
  return (
    <ul
      className="divide-y divide-slate-100 rounded-lg bg-white shadow-sm ring-1 ring-slate-200"
      data-testid="recent-activity"
    >
      {messages.map((message) => (
        <li
          key={message.id}
          className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 text-sm"
          data-recent-message={message.recipient}
        >
          <MessageStatusBadge status={message.status} isScheduled={message.scheduled_for !== null} />
          <Link
            href={`/${accountId}/messages/${message.id}`}
            className="min-w-0 flex-1 truncate font-medium text-brand-700 hover:underline"
          >
            {message.subject || '(no subject)'}
          </Link>
          <span className="w-full min-w-0 truncate text-xs text-slate-600 sm:w-auto">
            to {message.recipient} ·{' '}
            {new Date(message.created_at).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })}
          </span>
        </li>
      ))}
    </ul>
  );
}
