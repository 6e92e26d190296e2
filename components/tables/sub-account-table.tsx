'use client';

import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import { formatCount, formatDateTime } from '@/lib/client/format';
import type { SubAccountObject } from '@/lib/client/sub-account-queries';
import { DataTable, type Column } from './data-table';

export const STATUS_TONES = {
  active: 'green',
  suspended: 'red',
  'parent-suspended': 'amber',
  deleted: 'slate',
} as const;
export const STATUS_LABELS = {
  active: 'Active',
  suspended: 'Suspended',
  'parent-suspended': 'Parent suspended',
  deleted: 'Deleted',
} as const;

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
  const columns: Column<SubAccountObject>[] = [
    {
      key: 'sub-account',
      header: 'Sub account',
      className: 'lg:max-w-sm',
      cell: (sub) => (
        <>
          <Link
            href={`/${accountId}/sub-accounts/${sub.id}`}
            className="block font-medium text-brand-700 hover:underline wrap-anywhere"
          >
            {sub.name}
          </Link>
          <span className="block text-xs text-slate-600 wrap-anywhere">{sub.website}</span>
          <span className="block font-mono text-xs text-slate-500 wrap-anywhere">{sub.id}</span>
        </>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      cardLabel: true,
      cell: (sub) => (
        <>
          <span data-testid="sub-account-status">
            <Badge tone={STATUS_TONES[sub.status]}>{STATUS_LABELS[sub.status]}</Badge>
          </span>
          {sub.suspension_reason ? (
            <span className="mt-1 block text-xs text-slate-700 wrap-anywhere">{sub.suspension_reason}</span>
          ) : null}
        </>
      ),
    },
    {
      key: 'month',
      header: 'This month',
      cardLabel: true,
      className: 'text-slate-800 lg:whitespace-nowrap',
      cell: (sub) => (
        <>
          {usage ? formatCount(usage.get(sub.id) ?? 0) : '—'}
          <span className="block text-xs text-slate-600">
            {sub.monthly_credit > 0 ? `of ${formatCount(sub.monthly_credit)} allowed` : 'no cap'}
          </span>
        </>
      ),
    },
    {
      key: 'domains',
      header: 'Domains',
      cardLabel: true,
      className: 'text-slate-800',
      cell: (sub) => formatCount(sub.domain_count),
    },
    {
      key: 'activity',
      header: 'Last activity',
      cardLabel: true,
      className: 'text-xs text-slate-700 lg:whitespace-nowrap',
      cell: (sub) => (sub.last_activity_at ? formatDateTime(sub.last_activity_at) : 'None yet'),
    },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      className: 'lg:whitespace-nowrap lg:text-right',
      cell: (sub) => (
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
            <Button
              variant="ghost"
              size="sm"
              className="text-red-700"
              onClick={() => onDelete(sub)}
              aria-label={`Delete ${sub.name}`}
            >
              Delete
            </Button>
          ) : null}
        </span>
      ),
    },
  ];
  return (
    <DataTable
      caption="Sub accounts"
      columns={columns}
      rows={subAccounts}
      rowKey={(sub) => sub.id}
      rowAttributes={(sub) => ({ 'data-sub-account-row': sub.name })}
    />
  );
}
