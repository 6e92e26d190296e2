import Link from 'next/link';
import { Badge } from '@/components/ui/feedback';
import { formatDateTime } from '@/lib/client/format';
import type { ContactListObject, MembershipObject, SubscriptionStatus } from '@/lib/client/types';
import { DataTable, type Column } from './data-table';

export const STATUS_LABELS: Record<SubscriptionStatus, string> = {
  confirmed: 'Confirmed',
  unconfirmed: 'Unconfirmed',
  unsubscribed: 'Unsubscribed',
  complained: 'Complained',
};
const STATUS_TONES = { confirmed: 'green', unconfirmed: 'slate', unsubscribed: 'amber', complained: 'red' } as const;

export function MembershipStatusBadge({ status }: { status: SubscriptionStatus }) {
  return <Badge tone={STATUS_TONES[status] ?? 'slate'}>{STATUS_LABELS[status] ?? status}</Badge>;
}

/** A contact's lists, with the per-list status; lists deleted since keep their memberships (R10). */
export function MembershipTable({
  accountId,
  memberships,
  lists,
}: {
  accountId: string;
  memberships: MembershipObject[];
  lists: Map<string, ContactListObject>;
}) {
  const columns: Column<MembershipObject>[] = [
    {
      key: 'list',
      header: 'List',
      cell: (membership) =>
        !lists.has(membership.list_id) ? (
          // Deleting a list keeps its memberships (R10); the list itself is gone, so is its name.
          <span className="text-slate-700">A deleted list</span>
        ) : (
          <Link
            href={`/${accountId}/lists/${membership.list_id}`}
            className="font-medium text-brand-700 wrap-anywhere hover:underline"
          >
            {lists.get(membership.list_id)?.name}
          </Link>
        ),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (membership) => <MembershipStatusBadge status={membership.subscription_status} />,
    },
    {
      key: 'since',
      header: 'Member since',
      cardLabel: true,
      className: 'text-xs text-slate-600 lg:whitespace-nowrap',
      cell: (membership) => formatDateTime(membership.created_at),
    },
  ];
  return (
    <DataTable
      caption="Lists"
      columns={columns}
      rows={memberships}
      rowKey={(membership) => membership.list_id}
      rowAttributes={(membership) => ({
        'data-membership-row': lists.get(membership.list_id)?.name ?? membership.list_id,
      })}
    />
  );
}
