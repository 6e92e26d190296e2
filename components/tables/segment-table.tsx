import Link from 'next/link';
import { formatCount, formatDateTime } from '@/lib/client/format';
import type { SegmentObject } from '@/lib/client/segment-queries';
import { DataTable, type Column } from './data-table';

/** The account's segments with the contacts each matches now. */
export function SegmentTable({ accountId, segments }: { accountId: string; segments: SegmentObject[] }) {
  const columns: Column<SegmentObject>[] = [
    {
      key: 'segment',
      header: 'Segment',
      className: 'max-lg:col-span-full',
      cell: (segment) => (
        <Link
          href={`/${accountId}/segments/${segment.id}`}
          className="font-medium text-brand-700 wrap-anywhere hover:underline"
        >
          {segment.name}
        </Link>
      ),
    },
    {
      key: 'count',
      header: 'Contacts now',
      cardLabel: true,
      align: 'right',
      className: 'font-medium tabular-nums',
      cellAttributes: () => ({ 'data-count': 'contacts' }),
      cell: (segment) => formatCount(segment.count),
    },
    {
      key: 'updated',
      header: 'Last changed',
      cardLabel: true,
      align: 'right',
      className: 'text-slate-600',
      cell: (segment) => formatDateTime(segment.updated_at),
    },
  ];
  return (
    <DataTable
      caption="Segments"
      columns={columns}
      rows={segments}
      rowKey={(segment) => segment.id}
      rowAttributes={(segment) => ({ 'data-segment-row': segment.name })}
      rowClassName="max-lg:grid max-lg:grid-cols-2 max-lg:gap-x-4"
    />
  );
}
