import Link from 'next/link';
import { MessageStatusBadge } from '@/components/ui/message-status-badge';
import type { MessageObject } from '@/lib/client/types';
import { DataTable, type Column } from './data-table';

/** A templated subject not rendered yet: each recipient's own is stored at the first attempt. */
export const isSubjectPending = (message: MessageObject) =>
  message.num_attempts === 0 && message.subject.includes('{{');

export function MessageTable({ accountId, messages }: { accountId: string; messages: MessageObject[] }) {
  const columns: Column<MessageObject>[] = [
    {
      key: 'time',
      header: 'Time',
      className: 'text-xs text-slate-600 lg:whitespace-nowrap lg:text-sm',
      cell: (message) => new Date(message.created_at).toLocaleString(),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (message) => <MessageStatusBadge status={message.status} isScheduled={message.scheduled_for !== null} />,
    },
    {
      key: 'addresses',
      header: 'From → To',
      cell: (message) => (
        <>
          <p className="text-xs text-slate-600 wrap-break-word">
            <span className="lg:hidden">From </span>
            {message.sender}
          </p>
          <p className="font-medium wrap-break-word">
            <span className="text-xs font-normal text-slate-600 lg:hidden">To </span>
            {message.recipient}
          </p>
        </>
      ),
    },
    {
      key: 'subject',
      header: 'Subject',
      className: 'lg:max-w-sm',
      cell: (message) => (
        <>
          <Link
            href={`/${accountId}/messages/${message.id}`}
            className="line-clamp-2 font-medium text-brand-700 wrap-break-word hover:underline"
          >
            {message.subject || '(no subject)'}
          </Link>
          {isSubjectPending(message) ? (
            <p className="text-xs text-slate-600">Not sent yet: personalised for each recipient when it goes.</p>
          ) : null}
          {message.campaign_id ? (
            <Link
              href={`/${accountId}/campaigns/${message.campaign_id}`}
              className="text-xs text-slate-600 underline hover:text-brand-700"
              data-campaign-link
            >
              From a campaign
            </Link>
          ) : null}
        </>
      ),
    },
    {
      key: 'tags',
      header: 'Tags',
      cardLabel: true,
      className: (message) => `text-xs text-slate-600 ${message.tags.length ? '' : 'max-lg:hidden'}`,
      cell: (message) => message.tags.join(', '),
    },
  ];
  return (
    <DataTable
      caption="Messages"
      columns={columns}
      rows={messages}
      rowKey={(message) => message.id}
      rowAttributes={(message) => ({ 'data-message-row': message.recipient })}
    />
  );
}
