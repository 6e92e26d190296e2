import Link from 'next/link';
import { formatCount } from '@/lib/client/format';
import type { ContactListObject, SubscriptionStatus } from '@/lib/client/types';
import { STATUS_LABELS } from './membership-table';
import { DataTable, type Column } from './data-table';

const COUNTED: SubscriptionStatus[] = ['confirmed', 'unconfirmed', 'unsubscribed', 'complained'];

export const memberTotal = (list: ContactListObject) =>
  COUNTED.reduce((sum, status) => sum + (list.member_counts[status] ?? 0), 0);

/** The account's lists with their members counted per status. */
export function ListTable({ accountId, lists }: { accountId: string; lists: ContactListObject[] }) {
  const columns: Column<ContactListObject>[] = [
    {
      key: 'list',
      header: 'List',
      className: 'max-lg:col-span-full',
      cell: (list) => (
        <>
          <Link
            href={`/${accountId}/lists/${list.id}`}
            className="font-medium text-brand-700 wrap-anywhere hover:underline"
          >
            {list.name}
          </Link>
          {list.description ? (
            <p className="line-clamp-2 text-xs text-slate-600 wrap-anywhere">{list.description}</p>
          ) : null}
        </>
      ),
    },
    ...COUNTED.map((status): Column<ContactListObject> => ({
      key: status,
      header: STATUS_LABELS[status],
      cardLabel: true,
      align: 'right',
      className: 'tabular-nums',
      cellAttributes: () => ({ 'data-count': status }),
      cell: (list) => formatCount(list.member_counts[status] ?? 0),
    })),
    {
      key: 'total',
      header: 'Members',
      cardLabel: true,
      align: 'right',
      className: 'font-medium tabular-nums',
      cellAttributes: () => ({ 'data-count': 'total' }),
      cell: (list) => formatCount(memberTotal(list)),
    },
  ];
  return (
    <DataTable
      caption="Lists"
      columns={columns}
      rows={lists}
      rowKey={(list) => list.id}
      rowAttributes={(list) => ({ 'data-list-row': list.name })}
      rowClassName="max-lg:grid max-lg:grid-cols-2 max-lg:gap-x-4 sm:max-lg:grid-cols-5"
    />
  );
}
