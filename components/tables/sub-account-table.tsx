'use client';

import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import { formatCount, formatDateTime } from '@/lib/client/format';
import type { SubAccountObject } from '@/lib/client/sub-account-queries';
import { CellLabel, STACKED } from './stacked-table';

export const STATUS_TONES = { active: 'green', suspended: 'red', 'parent-suspended': 'amber', deleted: 'slate' } as const;
export const STATUS_LABELS = { active: 'Active', suspended: 'Suspended', 'parent-suspended': 'Parent suspended', deleted: 'Deleted' } as const;

/** Sub accounts with their state, cap and activity; the actions a person's role allows. */
export function SubAccountTable({
  accountId,
  subAccounts,
  usage,
  canSuspend,
  canDelete,
  onSuspend,
  onUnsuspend,
  onDelete,
}: {
  accountId: string;
  subAccounts: SubAccountObject[];
  /** Messages accepted this month, by sub account id (when the person may read usage). */
  usage: Map<string, number> | null;
  canSuspend: boolean;
  canDelete: boolean;
  onSuspend: (sub: SubAccountObject) => void;
  onUnsuspend: (sub: SubAccountObject) => void;
  onDelete: (sub: SubAccountObject) => void;
}) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Sub account</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Status</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>This month</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Domains</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Last activity</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {subAccounts.map((sub) => (
            <tr key={sub.id} data-sub-account-row={sub.name} className={STACKED.row} role="row">
              <td className={`${STACKED.cell} lg:max-w-sm`} role="cell">
                <Link href={`/${accountId}/sub-accounts/${sub.id}`} className="block font-medium text-brand-700 hover:underline wrap-anywhere">
                  {sub.name}
                </Link>
                <span className="block text-xs text-slate-600 wrap-anywhere">{sub.website}</span>
                <span className="block font-mono text-xs text-slate-500 wrap-anywhere">{sub.id}</span>
              </td>
              <td className={STACKED.cell} role="cell">
                <CellLabel>Status</CellLabel>
                <span data-testid="sub-account-status">
                  <Badge tone={STATUS_TONES[sub.status]}>{STATUS_LABELS[sub.status]}</Badge>
                </span>
                {sub.suspension_reason ? <span className="mt-1 block text-xs text-slate-700 wrap-anywhere">{sub.suspension_reason}</span> : null}
              </td>
              <td className={`${STACKED.cell} text-slate-800 lg:whitespace-nowrap`} role="cell">
                <CellLabel>This month</CellLabel>
                {usage ? formatCount(usage.get(sub.id) ?? 0) : '—'}
                <span className="block text-xs text-slate-600">{sub.monthly_credit > 0 ? `of ${formatCount(sub.monthly_credit)} allowed` : 'no cap'}</span>
              </td>
              <td className={`${STACKED.cell} text-slate-800`} role="cell">
                <CellLabel>Domains</CellLabel>
                {formatCount(sub.domain_count)}
              </td>
              <td className={`${STACKED.cell} text-xs text-slate-700 lg:whitespace-nowrap`} role="cell">
                <CellLabel>Last activity</CellLabel>
                {sub.last_activity_at ? formatDateTime(sub.last_activity_at) : 'None yet'}
              </td>
              <td className={`${STACKED.cell} lg:whitespace-nowrap lg:text-right`} role="cell">
                <span className="flex flex-wrap gap-2 lg:justify-end">
                  {canSuspend && sub.status === 'active' ? (
                    <Button variant="secondary" size="sm" onClick={() => onSuspend(sub)} aria-label={`Suspend ${sub.name}`}>
                      Suspend
                    </Button>
                  ) : null}
                  {canSuspend && sub.status === 'suspended' ? (
                    <Button variant="secondary" size="sm" onClick={() => onUnsuspend(sub)} aria-label={`Unsuspend ${sub.name}`}>
                      Unsuspend
                    </Button>
                  ) : null}
                  {canDelete ? (
                    <Button variant="ghost" size="sm" className="text-red-700" onClick={() => onDelete(sub)} aria-label={`Delete ${sub.name}`}>
                      Delete
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
