import type { ReactNode } from 'react';
import { DataTable, type Column } from './data-table';

export type ChartColumn = { key: string; label: string; isNumeric?: boolean };
export type ChartRow = { key: string; cells: Record<string, ReactNode> };

/** The numbers behind a chart: a plain table, its first column the period or category. */
export function ChartDataTable({
  name,
  caption,
  columns,
  rows,
}: {
  name: string;
  caption: string;
  columns: ChartColumn[];
  rows: ChartRow[];
}) {
  const tableColumns = columns.map((column, index): Column<ChartRow> => ({
    key: column.key,
    header: column.label,
    isRowHeader: index === 0,
    align: column.isNumeric && index > 0 ? 'right' : 'left',
    className: index === 0 ? 'whitespace-nowrap text-slate-700' : column.isNumeric ? 'tabular-nums' : '',
    cellAttributes: index === 0 ? undefined : () => ({ 'data-column': column.key }),
    cell: (row) => row.cells[column.key],
  }));
  return (
    <DataTable
      caption={caption}
      layout="compact"
      columns={tableColumns}
      rows={rows}
      rowKey={(row) => row.key}
      rowAttributes={(row) => ({ 'data-row': row.key })}
      tableAttributes={{ 'data-table': name }}
      tableClassName="text-xs"
    />
  );
}
