import type { ReactNode } from 'react';

export type ChartColumn = { key: string; label: string; isNumeric?: boolean };
export type ChartRow = { key: string; cells: Record<string, ReactNode> };

/** The numbers behind a chart: a plain table, its first column the period or category. */
export function ChartDataTable({ name, caption, columns, rows }: { name: string; caption: string; columns: ChartColumn[]; rows: ChartRow[] }) {
  return (
    <table className="min-w-full text-xs" data-table={name}>
      <caption className="sr-only">{caption}</caption>
      <thead className="bg-slate-50 text-left font-semibold text-slate-600">
        <tr>
          {columns.map((column) => (
            <th key={column.key} scope="col" className={`px-2 py-1.5 whitespace-nowrap ${column.isNumeric ? 'text-right' : ''}`}>
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((row) => (
          <tr key={row.key} data-row={row.key}>
            {columns.map((column, index) =>
              index === 0 ? (
                <th key={column.key} scope="row" className="px-2 py-1.5 text-left font-normal whitespace-nowrap text-slate-700">
                  {row.cells[column.key]}
                </th>
              ) : (
                <td key={column.key} className={`px-2 py-1.5 ${column.isNumeric ? 'text-right tabular-nums' : ''}`} data-column={column.key}>
                  {row.cells[column.key]}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
