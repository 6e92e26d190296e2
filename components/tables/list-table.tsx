import Link from 'next/link';
import { formatCount } from '@/lib/client/format';
import type { ContactListObject, SubscriptionStatus } from '@/lib/client/types';
import { STATUS_LABELS } from './membership-table';
import { CellLabel, STACKED } from './stacked-table';

const COUNTED: SubscriptionStatus[] = ['confirmed', 'unconfirmed', 'unsubscribed', 'complained'];

export const memberTotal = (list: ContactListObject) => COUNTED.reduce((sum, status) => sum + (list.member_counts[status] ?? 0), 0);

/** The account's lists with their members counted per status. */
export function ListTable({ accountId, lists }: { accountId: string; lists: ContactListObject[] }) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>List</th>
            {COUNTED.map((status) => (
              <th key={status} scope="col" role="columnheader" className={`${STACKED.headCell} text-right`}>
                {STATUS_LABELS[status]}
              </th>
            ))}
            <th scope="col" role="columnheader" className={`${STACKED.headCell} text-right`}>Members</th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {lists.map((list) => (
            <tr key={list.id} data-list-row={list.name} className={`${STACKED.row} max-lg:grid max-lg:grid-cols-2 max-lg:gap-x-4 sm:max-lg:grid-cols-5`} role="row">
              <td className={`${STACKED.cell} max-lg:col-span-full`} role="cell">
                <Link href={`/${accountId}/lists/${list.id}`} className="font-medium text-brand-700 wrap-anywhere hover:underline">
                  {list.name}
                </Link>
                {list.description ? <p className="line-clamp-2 text-xs text-slate-600 wrap-anywhere">{list.description}</p> : null}
              </td>
              {COUNTED.map((status) => (
                <td key={status} className={`${STACKED.cell} tabular-nums lg:text-right`} role="cell" data-count={status}>
                  <CellLabel>{STATUS_LABELS[status]}</CellLabel>
                  {formatCount(list.member_counts[status] ?? 0)}
                </td>
              ))}
              <td className={`${STACKED.cell} font-medium tabular-nums lg:text-right`} role="cell" data-count="total">
                <CellLabel>Members</CellLabel>
                {formatCount(memberTotal(list))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
