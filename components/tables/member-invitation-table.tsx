'use client';

import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import { formatDateTime } from '@/lib/client/format';
import type { MemberInvitationObject } from '@/lib/client/member-queries';
import { DataTable, type Column } from './data-table';

/**
 * Invitations not used yet. Links are kept only as hashes, so a link to copy is a new one: without a
 * system sender, “New link” makes one (and the previous link stops working).
 */
export function MemberInvitationTable({
  invitations,
  canResend,
  canRevoke,
  onResend,
  onRevoke,
}: {
  invitations: MemberInvitationObject[];
  canResend: boolean;
  canRevoke: boolean;
  onResend: (invitation: MemberInvitationObject) => void;
  onRevoke: (invitation: MemberInvitationObject) => void;
}) {
  const columns: Column<MemberInvitationObject>[] = [
    {
      key: 'invited',
      header: 'Invited',
      className: 'lg:max-w-sm',
      cell: (invitation) => (
        <>
          <span className="block font-medium text-slate-900 wrap-anywhere">{invitation.email}</span>
          {invitation.name ? (
            <span className="block text-xs text-slate-600 wrap-anywhere">{invitation.name}</span>
          ) : null}
        </>
      ),
    },
    {
      key: 'role',
      header: 'Role',
      cardLabel: true,
      className: 'text-slate-800',
      cell: (invitation) => invitation.role,
    },
    {
      key: 'expires',
      header: 'Link works until',
      cardLabel: true,
      className: 'text-xs text-slate-700 lg:whitespace-nowrap',
      cell: (invitation) =>
        invitation.status === 'expired' ? <Badge tone="amber">Expired</Badge> : formatDateTime(invitation.expires_at),
    },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      className: 'lg:whitespace-nowrap lg:text-right',
      cell: (invitation) => (
        <span className="flex flex-wrap gap-2 lg:justify-end">
          {canResend ? (
            <Button
              variant="secondary"
              size="sm"
              onClick={() => onResend(invitation)}
              aria-label={`${invitation.delivery === 'email' ? 'Resend invitation to' : 'New invitation link for'} ${invitation.email}`}
            >
              {invitation.delivery === 'email' ? 'Resend' : 'New link'}
            </Button>
          ) : null}
          {canRevoke ? (
            <Button
              variant="ghost"
              size="sm"
              className="text-red-700"
              onClick={() => onRevoke(invitation)}
              aria-label={`Revoke invitation of ${invitation.email}`}
            >
              Revoke
            </Button>
          ) : null}
        </span>
      ),
    },
  ];
  return (
    <DataTable
      caption="Invitations"
      columns={columns}
      rows={invitations}
      rowKey={(invitation) => invitation.id}
      rowAttributes={(invitation) => ({ 'data-invitation-row': invitation.email })}
    />
  );
}
