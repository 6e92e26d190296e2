'use client';

import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/client/format';
import type { MembershipObject, SubscriptionStatus } from '@/lib/client/types';
import { WRITABLE_SUBSCRIPTION_STATUSES } from '@/lib/core/lists/schemas';
import { fullName } from './contact-table';
import { MembershipStatusBadge, STATUS_LABELS } from './membership-table';
import { DataTable, type Column } from './data-table';

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
  const emailOf = (member: MembershipObject) => member.contact?.email ?? member.contact_id;
  const columns: Column<MembershipObject>[] = [
    {
      key: 'contact',
      header: 'Contact',
      className: 'max-lg:col-span-full',
      cell: (member) => (
        <>
          <Link
            href={`/${accountId}/contacts/${member.contact_id}`}
            className="font-medium text-brand-700 wrap-anywhere hover:underline"
          >
            {emailOf(member)}
          </Link>
          {member.contact && fullName(member.contact) ? (
            <p className="text-xs text-slate-600 wrap-anywhere">{fullName(member.contact)}</p>
          ) : null}
        </>
      ),
    },
    {
      key: 'status',
      header: 'Status on this list',
      cell: (member) =>
        canWrite && member.subscription_status !== 'complained' ? (
          <select
            aria-label={`Status of ${emailOf(member)}`}
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
        ),
    },
    {
      key: 'since',
      header: 'Member since',
      className: 'text-xs text-slate-600 max-lg:order-last max-lg:col-span-full lg:whitespace-nowrap',
      cell: (member) => (
        <>
          <span className="lg:hidden">Member since </span>
          {formatDateTime(member.created_at)}
        </>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      className: 'text-right',
      cell: (member) =>
        canWrite ? (
          <Button
            variant="ghost"
            size="sm"
            className="text-red-700"
            onClick={() => onRemove(member)}
            aria-label={`Remove ${emailOf(member)} from the list`}
          >
            Remove
          </Button>
        ) : null,
    },
  ];
  return (
    <DataTable
      caption="List members"
      columns={columns}
      rows={members}
      rowKey={(member) => member.contact_id}
      rowAttributes={(member) => ({ 'data-member-row': emailOf(member) })}
      rowClassName="max-lg:grid max-lg:grid-cols-[1fr_auto] max-lg:items-center max-lg:gap-x-3"
    />
  );
}
