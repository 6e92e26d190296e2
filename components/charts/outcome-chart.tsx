'use client';

import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartDataTable } from '@/components/tables/chart-data-table';
import { OUTCOMES, type PeriodPoint } from '@/lib/client/deliverability-series';
import { formatCount } from '@/lib/client/format';
import { AXIS_TICK, ChartCard, SERIES_COLORS, formatAxisCount } from './chart-card';

const LABELS = {
  delivered: 'Delivered',
  deferred: 'Deferred',
  bounced: 'Bounced',
  failed: 'Failed',
  suppressed: 'Suppressed',
} as const;

/** Delivered, deferred, bounced, failed and suppressed per period, stacked. */
export function OutcomeChart({ points }: { points: PeriodPoint[] }) {
  const fullLabel = new Map(points.map((point) => [point.key, point.full]));
  const tick = new Map(points.map((point) => [point.key, point.tick]));
  const totals = OUTCOMES.map(
    (outcome) =>
      `${formatCount(points.reduce((sum, point) => sum + point[outcome], 0))} ${LABELS[outcome].toLowerCase()}`,
  );
  return (
    <ChartCard
      id="outcomes"
      title="Outcomes over time"
      description="What happened to messages in each period. A deferral is one failed attempt that will be retried, so one message can count more than once."
      summary={`Stacked bars of message outcomes per period: ${totals.join(', ')}.`}
      table={
        <ChartDataTable
          name="outcomes"
          caption="Message outcomes per period"
          columns={[
            { key: 'period', label: 'Period' },
            { key: 'accepted', label: 'Accepted', isNumeric: true },
            ...OUTCOMES.map((outcome) => ({ key: outcome, label: LABELS[outcome], isNumeric: true })),
          ]}
          rows={points.map((point) => ({
            key: point.key,
            cells: {
              period: point.full,
              accepted: formatCount(point.accepted),
              ...Object.fromEntries(OUTCOMES.map((outcome) => [outcome, formatCount(point[outcome])])),
            },
          }))}
        />
      }
    >
      <BarChart
        responsive
        data={points}
        style={{ width: '100%', height: 260 }}
        margin={{ top: 4, right: 4, bottom: 0, left: 0 }}
      >
        <CartesianGrid vertical={false} stroke="#e2e8f0" />
        <XAxis
          dataKey="key"
          tickFormatter={(key: string) => tick.get(key) ?? ''}
          tick={AXIS_TICK}
          interval="preserveStartEnd"
          minTickGap={16}
          tickLine={false}
        />
        <YAxis
          tickFormatter={formatAxisCount}
          tick={AXIS_TICK}
          allowDecimals={false}
          width={40}
          tickLine={false}
          axisLine={false}
        />
        <Tooltip
          labelFormatter={(key) => fullLabel.get(String(key)) ?? String(key)}
          formatter={(value) => formatCount(Number(value))}
          cursor={{ fill: '#f1f5f9' }}
        />
        {/* In stack order, bottom first, not alphabetical (recharts' default). */}
        <Legend wrapperStyle={{ fontSize: 12, paddingTop: 8 }} iconType="square" iconSize={10} itemSorter={null} />
        {OUTCOMES.map((outcome) => (
          <Bar
            key={outcome}
            dataKey={outcome}
            name={LABELS[outcome]}
            stackId="outcomes"
            fill={SERIES_COLORS[outcome]}
            isAnimationActive={false}
            maxBarSize={48}
          />
        ))}
      </BarChart>
    </ChartCard>
  );
}
