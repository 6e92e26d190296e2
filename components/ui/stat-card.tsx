import type { ReactNode } from 'react';

const ACCENTS = {
  slate: 'border-slate-300',
  green: 'border-green-500',
  amber: 'border-amber-400',
  red: 'border-red-500',
  blue: 'border-brand-600',
} as const;

/** One figure of a period: its value, large, and a line that says what it is measured against. */
export function StatCard({
  name,
  label,
  value,
  detail,
  tone = 'slate',
}: {
  name: string;
  label: string;
  value: string;
  detail?: ReactNode;
  tone?: keyof typeof ACCENTS;
}) {
  return (
    <div
      className={`min-w-0 rounded-lg border-l-4 bg-white p-3 shadow-sm ring-1 ring-slate-200 sm:p-4 ${ACCENTS[tone]}`}
      data-figure={name}
    >
      <p className="text-sm font-medium text-slate-700">{label}</p>
      <p className="mt-1 text-xl font-semibold tabular-nums text-slate-900 sm:text-2xl" data-value>
        {value}
      </p>
      {detail ? <div className="mt-1 text-xs text-slate-600">{detail}</div> : null}
    </div>
  );
}
