import { Fragment, type ReactNode } from 'react';

/**
 * Tables that are tables on wide screens and a stack of cards on a phone, from one markup (so every
 * row exists once). The roles are explicit because a table shown as blocks loses them otherwise.
 */
export const STACKED = {
  wrapper: 'rounded-lg bg-white shadow-sm ring-1 ring-slate-200 lg:overflow-x-auto',
  table: 'block w-full text-sm lg:table lg:min-w-full lg:divide-y lg:divide-slate-200',
  head: 'hidden bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 lg:table-header-group',
  headCell: 'px-4 py-3',
  body: 'block divide-y divide-slate-100 lg:table-row-group',
  row: 'block space-y-2 px-4 py-4 lg:table-row lg:space-y-0 lg:p-0',
  cell: 'block min-w-0 lg:table-cell lg:px-4 lg:py-3',
  /** A column whose content the cards show elsewhere. */
  wideOnlyCell: 'hidden lg:table-cell lg:px-4 lg:py-3',
} as const;

/** The column's name above a value, shown only while the table is a stack of cards. */
export function CellLabel({ children }: { children: ReactNode }) {
  return <span className="block text-xs font-semibold uppercase tracking-wide text-slate-600 lg:hidden">{children}</span>;
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
