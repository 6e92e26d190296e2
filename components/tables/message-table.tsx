import Link from 'next/link';
import { MessageStatusBadge } from '@/components/ui/message-status-badge';
import type { MessageObject } from '@/lib/client/types';

export function MessageTable({ accountId, messages }: { accountId: string; messages: MessageObject[] }) {
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-3">Time</th>
            <th scope="col" className="px-4 py-3">Status</th>
            <th scope="col" className="px-4 py-3">From → To</th>
            <th scope="col" className="px-4 py-3">Subject</th>
            <th scope="col" className="px-4 py-3">Tags</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {messages.map((message) => (
            <tr key={message.id} data-message-row={message.recipient}>
              <td className="whitespace-nowrap px-4 py-3 text-slate-600">{new Date(message.created_at).toLocaleString()}</td>
              <td className="px-4 py-3">
                <MessageStatusBadge status={message.status} />
              </td>
              <td className="px-4 py-3">
                <p className="text-xs text-slate-500">{message.sender}</p>
                <p className="font-medium">{message.recipient}</p>
              </td>
              <td className="max-w-sm px-4 py-3">
                <Link href={`/${accountId}/messages/${message.id}`} className="line-clamp-2 font-medium text-brand-700 hover:underline">
                  {message.subject || '(no subject)'}
                </Link>
              </td>
              <td className="px-4 py-3 text-xs text-slate-600">{message.tags.join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
