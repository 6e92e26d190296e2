'use client';

import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/client/format';
import type { MembershipObject, SubscriptionStatus } from '@/lib/client/types';
import { WRITABLE_SUBSCRIPTION_STATUSES } from '@/lib/core/lists/schemas';
import { fullName } from './contact-table';
import { MembershipStatusBadge, STATUS_LABELS } from './membership-table';
import { STACKED } from './stacked-table';

/**
 * A list's members with their per-list status. The status can be changed in place, except
 * `complained`: the mailbox provider's verdict is frozen (R9), so it shows as a badge only.
 */
export function ListMemberTable({
  accountId,
  members,
  canWrite,
  busyContactId,
  onChangeStatus,
  onRemove,
}: {
  accountId: string;
  members: MembershipObject[];
  canWrite: boolean;
  busyContactId: string | null;
  onChangeStatus: (member: MembershipObject, status: SubscriptionStatus) => void;
  onRemove: (member: MembershipObject) => void;
}) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Contact</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Status on this list</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Member since</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {members.map((member) => {
            const email = member.contact?.email ?? member.contact_id;
            const isFrozen = member.subscription_status === 'complained';
            return (
              <tr key={member.contact_id} data-member-row={email} className={`${STACKED.row} max-lg:grid max-lg:grid-cols-[1fr_auto] max-lg:items-center max-lg:gap-x-3`} role="row">
                <td className={`${STACKED.cell} max-lg:col-span-full`} role="cell">
                  <Link href={`/${accountId}/contacts/${member.contact_id}`} className="font-medium text-brand-700 wrap-anywhere hover:underline">
                    {email}
                  </Link>
                  {member.contact && fullName(member.contact) ? <p className="text-xs text-slate-600 wrap-anywhere">{fullName(member.contact)}</p> : null}
                </td>
                <td className={STACKED.cell} role="cell">
                  {canWrite && !isFrozen ? (
                    <select
                      aria-label={`Status of ${email}`}
                      value={member.subscription_status}
                      disabled={busyContactId === member.contact_id}
                      onChange={(event) => onChangeStatus(member, event.target.value as SubscriptionStatus)}
                      className="rounded-md border-0 py-1 pl-2 pr-8 text-sm ring-1 ring-inset ring-slate-300"
                    >
                      {WRITABLE_SUBSCRIPTION_STATUSES.map((status) => (
                        <option key={status} value={status}>
                          {STATUS_LABELS[status]}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <MembershipStatusBadge status={member.subscription_status} />
                  )}
                </td>
                <td className={`${STACKED.cell} text-xs text-slate-600 max-lg:order-last max-lg:col-span-full lg:whitespace-nowrap`} role="cell">
                  <span className="lg:hidden">Member since </span>
                  {formatDateTime(member.created_at)}
                </td>
                <td className={`${STACKED.cell} text-right`} role="cell">
                  {canWrite ? (
                    <Button variant="ghost" size="sm" className="text-red-700" onClick={() => onRemove(member)} aria-label={`Remove ${email} from the list`}>
                      Remove
                    </Button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
