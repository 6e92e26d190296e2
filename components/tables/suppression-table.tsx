'use client';

import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/feedback';
import { formatDateTime } from '@/lib/client/format';
import type { SuppressionObject } from '@/lib/client/types';
import { DataTable, type Column } from './data-table';

export const KIND_LABELS: Record<SuppressionObject['kind'], string> = {
  bounce: 'Hard bounce',
  complaint: 'Complaint',
  manual: 'Added by hand',
  protected: 'Protected',
};
const KIND_TONES = { bounce: 'red', complaint: 'amber', manual: 'slate', protected: 'blue' } as const;

export function SuppressionTable({
  suppressions,
  canDelete,
  onDelete,
}: {
  suppressions: SuppressionObject[];
  canDelete: boolean;
  onDelete: (suppression: SuppressionObject) => void;
}) {
  const columns: Column<SuppressionObject>[] = [
    {
      key: 'address',
      header: 'Address',
      cell: (suppression) => <p className="font-medium wrap-anywhere">{suppression.email}</p>,
    },
    {
      key: 'domain',
      header: 'Domain',
      cardLabel: true,
      className: 'text-sm text-slate-700',
      cell: (suppression) => suppression.domain ?? <span className="text-slate-600">Every domain</span>,
    },
    {
      key: 'reason',
      header: 'Reason',
      cardLabel: true,
      className: 'lg:max-w-xs',
      cell: (suppression) => (
        <>
          <Badge tone={KIND_TONES[suppression.kind] ?? 'slate'}>
            {KIND_LABELS[suppression.kind] ?? suppression.kind}
          </Badge>
          {suppression.reason ? (
            <p className="mt-1 text-xs text-slate-700 wrap-anywhere">{suppression.reason}</p>
          ) : null}
        </>
      ),
    },
    {
      key: 'since',
      header: 'Since',
      cardLabel: true,
      className: 'text-xs text-slate-600 lg:whitespace-nowrap',
      cell: (suppression) => formatDateTime(suppression.created_at),
    },
    {
      key: 'until',
      header: 'Until',
      cardLabel: true,
      className: 'text-xs text-slate-600 lg:whitespace-nowrap',
      cell: (suppression) => formatDateTime(suppression.expires_at),
    },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      className: 'lg:whitespace-nowrap lg:text-right',
      cell: (suppression) =>
        canDelete ? (
          <Button
            variant="ghost"
            size="sm"
            className="text-red-700"
            onClick={() => onDelete(suppression)}
            aria-label={`Remove ${suppression.email}${suppression.domain ? ` for ${suppression.domain}` : ''}`}
          >
            Remove
          </Button>
        ) : null,
    },
  ];
  return (
    <DataTable
      caption="Suppressions"
      columns={columns}
      rows={suppressions}
      rowKey={(suppression) => suppression.id}
      rowAttributes={(suppression) => ({
        'data-suppression-row': suppression.email,
        'data-suppression-domain': suppression.domain ?? '',
      })}
    />
  );
}
