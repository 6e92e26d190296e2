'use client';

import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import { formatDateTime } from '@/lib/client/format';
import type { MemberInvitationObject } from '@/lib/client/member-queries';
import { CellLabel, STACKED } from './stacked-table';

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
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Invited</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Role</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Link works until</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {invitations.map((invitation) => (
            <tr key={invitation.id} data-invitation-row={invitation.email} className={STACKED.row} role="row">
              <td className={`${STACKED.cell} lg:max-w-sm`} role="cell">
                <span className="block font-medium text-slate-900 wrap-anywhere">{invitation.email}</span>
                {invitation.name ? <span className="block text-xs text-slate-600 wrap-anywhere">{invitation.name}</span> : null}
              </td>
              <td className={`${STACKED.cell} text-slate-800`} role="cell">
                <CellLabel>Role</CellLabel>
                {invitation.role}
              </td>
              <td className={`${STACKED.cell} text-xs text-slate-700 lg:whitespace-nowrap`} role="cell">
                <CellLabel>Link works until</CellLabel>
                {invitation.status === 'expired' ? <Badge tone="amber">Expired</Badge> : formatDateTime(invitation.expires_at)}
              </td>
              <td className={`${STACKED.cell} lg:whitespace-nowrap lg:text-right`} role="cell">
                <span className="flex flex-wrap gap-2 lg:justify-end">
                  {canResend ? (
                    <Button variant="secondary" size="sm" onClick={() => onResend(invitation)} aria-label={`${invitation.delivery === 'email' ? 'Resend invitation to' : 'New invitation link for'} ${invitation.email}`}>
                      {invitation.delivery === 'email' ? 'Resend' : 'New link'}
                    </Button>
                  ) : null}
                  {canRevoke ? (
                    <Button variant="ghost" size="sm" className="text-red-700" onClick={() => onRevoke(invitation)} aria-label={`Revoke invitation of ${invitation.email}`}>
                      Revoke
                    </Button>
                  ) : null}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
