import type { ReactNode } from 'react';

export { SERIES_COLORS } from '@/lib/client/series-colors';

/** Axis text small enough for a phone, dark enough to read. */
export const AXIS_TICK = { fontSize: 12, fill: '#475569' } as const;

const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
export const formatAxisCount = (value: number) => compact.format(value);

const RATE_STEPS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25];

/** Round ticks for a rate axis reaching at least `top` (at most five): 0%, 10%, 20%, 30%. */
export function rateTicks(top: number): number[] {
  const step = RATE_STEPS.find((candidate) => top / candidate <= 4) ?? 0.25;
  const count = Math.max(1, Math.ceil(top / step - 1e-9));
  return Array.from({ length: count + 1 }, (_, index) => Math.min(1, Number((index * step).toFixed(6))));
}

/**
 * Dots of a rate line: on every point while there are few; when a month of points would run them
 * into a chain, only on a point with no neighbour to draw a line to (else a lone busy day vanishes).
 */
export function rateDot(values: readonly (number | null)[], color: string) {
  const isCrowded = values.length > 14;
  return function RateDot({ cx, cy, index }: { cx?: number; cy?: number; index: number }) {
    const value = values[index] ?? null;
    const isAlone = (values[index - 1] ?? null) === null && (values[index + 1] ?? null) === null;
    if (cx === undefined || cy === undefined || value === null || (isCrowded && !isAlone)) return <g key={index} />;
    return <circle key={index} cx={cx} cy={cy} r={3} fill="#fff" stroke={color} strokeWidth={2} />;
  };
}

/**
 * A chart in a card: a heading, what it shows, the chart (a picture, described in one sentence for
 * screen readers) and the numbers behind it as a table, one click away. The table is the content;
 * the chart is how it looks.
 */
export function ChartCard({
  id,
  title,
  description,
  summary,
  table,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  summary: string;
  table: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="min-w-0 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
      data-chart={id}
    >
      <h2 id={`${id}-heading`} className="text-base font-semibold">
        {title}
      </h2>
      {description ? <div className="mt-1 text-xs text-slate-600">{description}</div> : null}
      <div role="img" aria-label={summary} className="mt-4">
        {children}
      </div>
      <details className="mt-3 group">
        <summary className="cursor-pointer text-xs font-medium text-brand-700 hover:underline">
          <span className="group-open:hidden">Show the numbers</span>
          <span className="hidden group-open:inline">Hide the numbers</span>
        </summary>
        <div className="mt-2 max-h-96 overflow-auto">{table}</div>
      </details>
    </section>
  );
}
