'use client';

import { Fragment, useState, type ReactNode } from 'react';

/**
 * One column, as data: what its header says, how a row's cell reads, and how it lays out.
 * `cardLabel` repeats the header above the value while the table is a stack of cards (phones);
 * `isWideOnly` hides a cell there because the card shows its value elsewhere.
 */
export type Column<Row> = {
  key: string;
  header: string;
  /** Named for screen readers only (a column of buttons). */
  isHeaderHidden?: boolean;
  cell: (row: Row) => ReactNode;
  align?: 'left' | 'right';
  cardLabel?: boolean;
  isWideOnly?: boolean;
  /** The row's name for screen readers: a `<th scope="row">`. */
  isRowHeader?: boolean;
  className?: string | ((row: Row) => string);
  headerClassName?: string;
  cellAttributes?: (row: Row) => Record<string, string | undefined>;
  /** Makes the header a button that orders the rows (ascending first). */
  compare?: (a: Row, b: Row) => number;
};

type Layout = keyof typeof LAYOUTS;

/**
 * `cards`: a table on wide screens and a stack of cards on a phone, from one markup (so every row
 * exists once); the roles are explicit because a table shown as blocks loses them otherwise.
 * `grid` (and `compact`): always a table, scrolling sideways inside its own box on a narrow screen.
 */
const LAYOUTS = {
  cards: {
    wrapper: 'overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200',
    table: 'block w-full text-sm lg:table lg:min-w-full lg:divide-y lg:divide-slate-200',
    head: 'hidden bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 lg:table-header-group',
    headCell: 'px-4 py-3',
    body: 'block divide-y divide-slate-100 lg:table-row-group',
    row: 'block space-y-2 px-4 py-4 lg:table-row lg:space-y-0 lg:p-0',
    cell: 'block min-w-0 lg:table-cell lg:px-4 lg:py-3',
    wideOnlyCell: 'hidden lg:table-cell lg:px-4 lg:py-3',
  },
  grid: {
    wrapper: 'overflow-x-auto',
    table: 'min-w-full',
    head: 'bg-slate-50 text-left text-xs font-semibold text-slate-600',
    headCell: 'px-3 py-2 whitespace-nowrap',
    body: 'divide-y divide-slate-100',
    row: '',
    cell: 'px-3 py-2',
    wideOnlyCell: 'px-3 py-2',
  },
  /** A grid of figures beside a chart: tighter, so more periods fit. */
  compact: {
    wrapper: 'overflow-x-auto',
    table: 'min-w-full',
    head: 'bg-slate-50 text-left text-xs font-semibold text-slate-600',
    headCell: 'px-2 py-1.5 whitespace-nowrap',
    body: 'divide-y divide-slate-100',
    row: '',
    cell: 'px-2 py-1.5',
    wideOnlyCell: 'px-2 py-1.5',
  },
} as const;

/** The column's name above a value, shown only while the table is a stack of cards. */
export function CellLabel({ children }: { children: ReactNode }) {
  return (
    <span className="block text-xs font-semibold uppercase tracking-wide text-slate-600 lg:hidden">{children}</span>
  );
}

/**
 * A DNS name that wraps after its dots, not at its hyphens (where a reader would take the break for
 * part of the name). Only a label too long for any line may still break inside.
 */
export function HostName({ host }: { host: string }) {
  const labels = host.split('.');
  return (
    <>
      {labels.map((label, index) => (
        <Fragment key={index}>
          <span className={label.length <= 30 ? 'whitespace-nowrap' : undefined}>
            {label}
            {index < labels.length - 1 ? '.' : ''}
          </span>
          {index < labels.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}

type Sort = { key: string; isDescending: boolean } | null;

/** What a table shows instead of rows: a skeleton while loading, the error, or the empty state. */
export type TableState = { isLoading?: boolean; loadingLabel?: string; error?: ReactNode; empty?: ReactNode };

/**
 * Every table in the dashboard. While `isLoading` with no rows it shows a skeleton, with `error` that
 * error, with no rows `empty` (nothing when not given); otherwise the rows, in the order given unless
 * a sortable header was pressed.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  rowAttributes,
  rowClassName,
  layout = 'cards',
  isLoading = false,
  loadingLabel = 'Loading…',
  error,
  empty,
  tableAttributes,
  tableClassName = '',
  headerCells,
  className = '',
  bodyClassName = '',
}: {
  /** What the table lists, for screen readers. */
  caption: string;
  columns: Column<Row>[];
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string;
  rowAttributes?: (row: Row) => Record<string, string | undefined>;
  rowClassName?: string;
  layout?: Layout;
  isLoading?: boolean;
  loadingLabel?: string;
  error?: ReactNode;
  empty?: ReactNode;
  tableAttributes?: Record<string, string>;
  tableClassName?: string;
  /** A header that is a control rather than words (select every row); the column's `header` names it. */
  headerCells?: Record<string, ReactNode>;
  className?: string;
  bodyClassName?: string;
}) {
  const [sort, setSort] = useState<Sort>(null);
  if (error) return <>{error}</>;
  if (!rows || (isLoading && rows.length === 0))
    return isLoading ? <TableSkeleton label={loadingLabel} columns={columns.length} /> : null;
  if (rows.length === 0) return empty ? <>{empty}</> : null;

  const classes = LAYOUTS[layout];
  const roles = layout === 'cards';
  const sortColumn = sort ? columns.find((column) => column.key === sort.key) : undefined;
  const ordered = sortColumn?.compare
    ? [...rows].sort((a, b) => sortColumn.compare!(a, b) * (sort!.isDescending ? -1 : 1))
    : rows;
  // Cards keep their values to the left: a right-aligned figure in a card reads as belonging to nothing.
  const align = (column: Column<Row>, isHeader: boolean) =>
    column.align !== 'right' ? '' : isHeader || layout !== 'cards' ? 'text-right' : 'lg:text-right';

  return (
    <div className={`${classes.wrapper} ${className}`}>
      <table className={`${classes.table} ${tableClassName}`} role={roles ? 'table' : undefined} {...tableAttributes}>
        <caption className="sr-only">{caption}</caption>
        <thead className={classes.head} role={roles ? 'rowgroup' : undefined}>
          <tr role={roles ? 'row' : undefined}>
            {columns.map((column) => {
              const isSorted = sort?.key === column.key;
              return (
                <th
                  key={column.key}
                  scope="col"
                  role={roles ? 'columnheader' : undefined}
                  className={`${classes.headCell} ${align(column, true)} ${column.headerClassName ?? ''}`}
                  aria-sort={
                    column.compare ? (isSorted ? (sort!.isDescending ? 'descending' : 'ascending') : 'none') : undefined
                  }
                >
                  {headerCells?.[column.key] !== undefined ? (
                    headerCells[column.key]
                  ) : column.isHeaderHidden ? (
                    <span className="sr-only">{column.header}</span>
                  ) : column.compare ? (
                    <button
                      type="button"
                      className="inline-flex items-center gap-1 uppercase hover:text-slate-900"
                      onClick={() => setSort({ key: column.key, isDescending: isSorted && !sort!.isDescending })}
                    >
                      {column.header}
                      <span aria-hidden>{isSorted ? (sort!.isDescending ? '↓' : '↑') : '↕'}</span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className={`${classes.body} ${bodyClassName}`} role={roles ? 'rowgroup' : undefined}>
          {ordered.map((row) => (
            <tr
              key={rowKey(row)}
              className={`${classes.row} ${rowClassName ?? ''}`}
              role={roles ? 'row' : undefined}
              {...rowAttributes?.(row)}
            >
              {columns.map((column) => {
                const extra = typeof column.className === 'function' ? column.className(row) : (column.className ?? '');
                const Cell = column.isRowHeader ? 'th' : 'td';
                return (
                  <Cell
                    key={column.key}
                    scope={column.isRowHeader ? 'row' : undefined}
                    role={roles ? 'cell' : undefined}
                    className={`${column.isWideOnly ? classes.wideOnlyCell : classes.cell} ${align(column, false)} ${column.isRowHeader ? 'text-left font-normal' : ''} ${extra}`}
                    {...column.cellAttributes?.(row)}
                  >
                    {column.cardLabel ? <CellLabel>{column.header}</CellLabel> : null}
                    {column.cell(row)}
                  </Cell>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Grey bars where the rows will be, so the page does not jump when they arrive. */
function TableSkeleton({ label, columns }: { label: string; columns: number }) {
  return (
    <div className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200" role="status" data-table-skeleton>
      <span className="sr-only">{label}</span>
      <div className="space-y-3" aria-hidden>
        {[0, 1, 2].map((line) => (
          <div key={line} className="flex gap-4">
            {Array.from({ length: Math.min(columns, 4) }, (_, cell) => (
              <div key={cell} className="h-4 flex-1 animate-pulse rounded bg-slate-200" />
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}
