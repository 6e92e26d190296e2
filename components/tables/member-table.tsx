'use client';

import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import { formatDateTime } from '@/lib/client/format';
import type { MemberObject } from '@/lib/client/member-queries';
import { DataTable, type Column } from './data-table';

/** Members with their roles; the owner and the person looking cannot be changed, signed out or removed here. */
export function MemberTable({
  members,
  currentUserId,
  canUpdate,
  canRemove,
  onChangeRole,
  onEndSessions,
  onRemove,
}: {
  members: MemberObject[];
  currentUserId: string | null;
  canUpdate: boolean;
  canRemove: boolean;
  onChangeRole: (member: MemberObject) => void;
  /** Who may change roles may also sign a member out everywhere (the same scope). */
  onEndSessions: (member: MemberObject) => void;
  onRemove: (member: MemberObject) => void;
}) {
  const isLocked = (member: MemberObject) => member.is_owner || member.user_id === currentUserId;
  const columns: Column<MemberObject>[] = [
    {
      key: 'member',
      header: 'Member',
      className: 'lg:max-w-sm',
      cell: (member) => (
        <>
          <span className="block font-medium text-slate-900 wrap-anywhere">{member.name ?? member.email}</span>
          {member.name ? <span className="block text-xs text-slate-600 wrap-anywhere">{member.email}</span> : null}
          <span className="mt-1 flex flex-wrap gap-1">
            {member.is_owner ? <Badge tone="blue">Owner</Badge> : null}
            {member.user_id === currentUserId ? <Badge>You</Badge> : null}
          </span>
        </>
      ),
    },
    {
      key: 'role',
      header: 'Role',
      cardLabel: true,
      className: 'text-slate-800',
      cell: (member) => <span data-testid="member-role">{member.role}</span>,
    },
    {
      key: 'since',
      header: 'Member since',
      cardLabel: true,
      className: 'text-xs text-slate-700 lg:whitespace-nowrap',
      cell: (member) => formatDateTime(member.created_at),
    },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      className: 'lg:whitespace-nowrap lg:text-right',
      cell: (member) =>
        !isLocked(member) ? (
          <span className="flex flex-wrap gap-2 lg:justify-end">
            {canUpdate ? (
              <Button
                variant="secondary"
                size="sm"
                onClick={() => onChangeRole(member)}
                aria-label={`Change role of ${member.email}`}
              >
                Change role
              </Button>
            ) : null}
            {canUpdate && member.status === 'active' ? (
              <Button
                variant="secondary"
                size="sm"
                onClick={() => onEndSessions(member)}
                aria-label={`End the sessions of ${member.email}`}
              >
                End sessions
              </Button>
            ) : null}
            {canRemove ? (
              <Button
                variant="ghost"
                size="sm"
                className="text-red-700"
                onClick={() => onRemove(member)}
                aria-label={`Remove ${member.email}`}
              >
                Remove
              </Button>
            ) : null}
          </span>
        ) : null,
    },
  ];
  return (
    <DataTable
      caption="Members"
      columns={columns}
      rows={members}
      rowKey={(member) => member.user_id}
      rowAttributes={(member) => ({ 'data-member-row': member.email })}
    />
  );
}
