import { formatCount, formatDuration, formatPercent, rateOf } from '@/lib/client/format';
import { PROVIDER_OPTIONS } from '@/lib/client/statistics-view';
import type { ProviderStatistics } from '@/lib/client/types';
import { DataTable, type Column } from './data-table';

const LABELS: Record<string, string> = Object.fromEntries(PROVIDER_OPTIONS);

/** A histogram bound as people read it: "≤ 5 s"; null past the last bin (2 h) when there were deliveries. */
const bound = (seconds: number | null, delivered: number) =>
  delivered === 0 ? '—' : seconds === null ? '> 2 h' : `≤ ${formatDuration(seconds)}`;

const withRate = (count: number, rate: number | null) => (
  <>
    {formatCount(count)}
    <span className="ml-1 text-xs text-slate-500">{rate === null ? '' : formatPercent(rate)}</span>
  </>
);

const numeric = { align: 'right' as const, className: 'tabular-nums whitespace-nowrap' };
const columns: Column<ProviderStatistics>[] = [
  { key: 'provider', header: 'Provider', isRowHeader: true, cell: (row) => LABELS[row.provider] ?? row.provider },
  { key: 'accepted', header: 'Accepted', ...numeric, cell: (row) => formatCount(row.reception_count) },
  {
    key: 'delivered',
    header: 'Delivered',
    ...numeric,
    cell: (row) =>
      withRate(
        row.delivered_count,
        rateOf(row.delivered_count, row.delivered_count + row.bounced_count + row.failed_count),
      ),
  },
  { key: 'deferred', header: 'Deferred', ...numeric, cell: (row) => formatCount(row.deferred_count) },
  {
    key: 'bounced',
    header: 'Bounced',
    ...numeric,
    cell: (row) => withRate(row.bounced_count, rateOf(row.bounced_count, row.delivered_count + row.bounced_count)),
  },
  {
    key: 'opened',
    header: 'Opened',
    ...numeric,
    cell: (row) => withRate(row.opened_count, rateOf(row.opened_count, row.delivered_count)),
  },
  {
    key: 'median',
    header: 'Median time',
    ...numeric,
    cell: (row) => bound(row.median_delivery_time, row.delivered_count),
  },
  { key: 'p95', header: '95% within', ...numeric, cell: (row) => bound(row.p95_delivery_time, row.delivered_count) },
];

/**
 * Outcomes per mailbox provider over the page's period: each recipient domain counts under the
 * provider of its MX hosts. Rates: delivered of those that ended, bounced of delivered or bounced,
 * opened of delivered.
 */
export function ProviderStatisticsTable({ rows }: { rows: ProviderStatistics[] }) {
  return (
    <DataTable
      caption="By mailbox provider"
      layout="grid"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.provider}
      rowAttributes={(row) => ({ 'data-provider': row.provider })}
      tableAttributes={{ 'data-table': 'providers' }}
      tableClassName="text-sm"
      empty={<p className="text-sm text-slate-600">No mail in this period.</p>}
    />
  );
}
