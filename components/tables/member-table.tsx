'use client';

import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import { formatDateTime } from '@/lib/client/format';
import type { MemberObject } from '@/lib/client/member-queries';
import { CellLabel, STACKED } from './stacked-table';

/** Members with their roles; the owner and the person looking cannot be changed or removed here. */
export function MemberTable({
  members,
  currentUserId,
  canUpdate,
  canRemove,
  onChangeRole,
  onRemove,
}: {
  members: MemberObject[];
  currentUserId: string | null;
  canUpdate: boolean;
  canRemove: boolean;
  onChangeRole: (member: MemberObject) => void;
  onRemove: (member: MemberObject) => void;
}) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Member</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Role</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Member since</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {members.map((member) => {
            const isSelf = member.user_id === currentUserId;
            const isLocked = member.is_owner || isSelf;
            return (
              <tr key={member.user_id} data-member-row={member.email} className={STACKED.row} role="row">
                <td className={`${STACKED.cell} lg:max-w-sm`} role="cell">
                  <span className="block font-medium text-slate-900 wrap-anywhere">{member.name ?? member.email}</span>
                  {member.name ? <span className="block text-xs text-slate-600 wrap-anywhere">{member.email}</span> : null}
                  <span className="mt-1 flex flex-wrap gap-1">
                    {member.is_owner ? <Badge tone="blue">Owner</Badge> : null}
                    {isSelf ? <Badge>You</Badge> : null}
                  </span>
                </td>
                <td className={`${STACKED.cell} text-slate-800`} role="cell">
                  <CellLabel>Role</CellLabel>
                  <span data-testid="member-role">{member.role}</span>
                </td>
                <td className={`${STACKED.cell} text-xs text-slate-700 lg:whitespace-nowrap`} role="cell">
                  <CellLabel>Member since</CellLabel>
                  {formatDateTime(member.created_at)}
                </td>
                <td className={`${STACKED.cell} lg:whitespace-nowrap lg:text-right`} role="cell">
                  {!isLocked ? (
                    <span className="flex flex-wrap gap-2 lg:justify-end">
                      {canUpdate ? (
                        <Button variant="secondary" size="sm" onClick={() => onChangeRole(member)} aria-label={`Change role of ${member.email}`}>
                          Change role
                        </Button>
                      ) : null}
                      {canRemove ? (
                        <Button variant="ghost" size="sm" className="text-red-700" onClick={() => onRemove(member)} aria-label={`Remove ${member.email}`}>
                          Remove
                        </Button>
                      ) : null}
                    </span>
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
