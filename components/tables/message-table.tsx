import Link from 'next/link';
import { MessageStatusBadge } from '@/components/ui/message-status-badge';
import type { MessageObject } from '@/lib/client/types';
import { CellLabel, STACKED } from './stacked-table';

export function MessageTable({ accountId, messages }: { accountId: string; messages: MessageObject[] }) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Time</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Status</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>From → To</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Subject</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Tags</th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {messages.map((message) => (
            <tr key={message.id} data-message-row={message.recipient} className={STACKED.row} role="row">
              <td className={`${STACKED.cell} text-xs text-slate-600 lg:whitespace-nowrap lg:text-sm`} role="cell">
                {new Date(message.created_at).toLocaleString()}
              </td>
              <td className={STACKED.cell} role="cell">
                <MessageStatusBadge status={message.status} />
              </td>
              <td className={STACKED.cell} role="cell">
                <p className="text-xs text-slate-600 wrap-break-word">
                  <span className="lg:hidden">From </span>
                  {message.sender}
                </p>
                <p className="font-medium wrap-break-word">
                  <span className="text-xs font-normal text-slate-600 lg:hidden">To </span>
                  {message.recipient}
                </p>
              </td>
              <td className={`${STACKED.cell} lg:max-w-sm`} role="cell">
                <Link href={`/${accountId}/messages/${message.id}`} className="line-clamp-2 font-medium text-brand-700 wrap-break-word hover:underline">
                  {message.subject || '(no subject)'}
                </Link>
              </td>
              <td className={`${STACKED.cell} text-xs text-slate-600 ${message.tags.length ? '' : 'max-lg:hidden'}`} role="cell">
                <CellLabel>Tags</CellLabel>
                {message.tags.join(', ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
