import Link from 'next/link';
import { formatAge, formatCount, formatDateTime } from '@/lib/client/format';
import type { SegmentObject } from '@/lib/client/segment-queries';
import { DataTable, type Column } from './data-table';

/** A stored count as the list shows it: approximate, with its age, since contacts change after it. */
function StoredCount({ segment }: { segment: SegmentObject }) {
  if (segment.count === null || segment.counted_at === null) return <span className="text-slate-500">Counting…</span>;
  return (
    <span title={`Counted ${formatDateTime(segment.counted_at)}; open the segment for the count now`}>
      ≈ {formatCount(segment.count)}{' '}
      <span className="font-normal whitespace-nowrap text-slate-500">· counted {formatAge(segment.counted_at)}</span>
    </span>
  );
}

/** The account's segments with the contacts each matched when last counted. */
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
      header: 'Contacts',
      cardLabel: true,
      align: 'right',
      className: 'font-medium tabular-nums',
      cellAttributes: (segment) => ({ 'data-count': 'contacts', 'data-counted-at': segment.counted_at ?? '' }),
      cell: (segment) => <StoredCount segment={segment} />,
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
