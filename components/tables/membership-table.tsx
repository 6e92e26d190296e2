import Link from 'next/link';
import { Badge } from '@/components/ui/feedback';
import { formatDateTime } from '@/lib/client/format';
import type { ContactListObject, MembershipObject, SubscriptionStatus } from '@/lib/client/types';
import { CellLabel, STACKED } from './stacked-table';

export const STATUS_LABELS: Record<SubscriptionStatus, string> = { confirmed: 'Confirmed', unconfirmed: 'Unconfirmed', unsubscribed: 'Unsubscribed', complained: 'Complained' };
const STATUS_TONES = { confirmed: 'green', unconfirmed: 'slate', unsubscribed: 'amber', complained: 'red' } as const;

export function MembershipStatusBadge({ status }: { status: SubscriptionStatus }) {
  return <Badge tone={STATUS_TONES[status] ?? 'slate'}>{STATUS_LABELS[status] ?? status}</Badge>;
}

/** A contact's lists, with the per-list status; lists deleted since keep their memberships (R10). */
export function MembershipTable({ accountId, memberships, lists }: { accountId: string; memberships: MembershipObject[]; lists: Map<string, ContactListObject> }) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>List</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Status</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Member since</th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {memberships.map((membership) => {
            const list = lists.get(membership.list_id);
            const name = list?.name;
            return (
              <tr key={membership.list_id} data-membership-row={name ?? membership.list_id} className={STACKED.row} role="row">
                <td className={STACKED.cell} role="cell">
                  {!list ? (
                    // Deleting a list keeps its memberships (R10); the list itself is gone, so is its name.
                    <span className="text-slate-700">A deleted list</span>
                  ) : (
                    <Link href={`/${accountId}/lists/${membership.list_id}`} className="font-medium text-brand-700 wrap-anywhere hover:underline">
                      {name}
                    </Link>
                  )}
                </td>
                <td className={STACKED.cell} role="cell">
                  <MembershipStatusBadge status={membership.subscription_status} />
                </td>
                <td className={`${STACKED.cell} text-xs text-slate-600 lg:whitespace-nowrap`} role="cell">
                  <CellLabel>Member since</CellLabel>
                  {formatDateTime(membership.created_at)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
