'use client';

import { Bar, BarChart, CartesianGrid, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartDataTable } from '@/components/tables/chart-data-table';
import { formatCount } from '@/lib/client/format';
import type { SubAccountUsageHistory } from '@/lib/client/sub-account-queries';
import { AXIS_TICK, ChartCard, SERIES_COLORS, formatAxisCount } from './chart-card';

const ACCEPTED_COLOR = '#1e40af';

// Months are UTC calendar months: named in UTC, so that no browser's time zone shifts one.
const monthName = (from: string, month: 'short' | 'long') =>
  new Date(from).toLocaleDateString(undefined, {
    month,
    year: month === 'long' ? 'numeric' : '2-digit',
    timeZone: 'UTC',
  });

/** A sub account's accepted messages per month (what its monthly credit counts), against the current cap. */
export function SubAccountUsageChart({ history }: { history: SubAccountUsageHistory }) {
  const points = history.data.map((month) => ({
    ...month,
    tick: monthName(month.from_timestamp, 'short'),
    full: monthName(month.from_timestamp, 'long'),
  }));
  const fullLabel = new Map(points.map((point) => [point.month, point.full]));
  const tick = new Map(points.map((point) => [point.month, point.tick]));
  const total = points.reduce((sum, point) => sum + point.reception_count, 0);
  const cap = history.monthly_credit;
  return (
    <ChartCard
      id="sub-account-usage"
      title="Usage per month"
      description={
        <>
          Messages accepted in each calendar month (UTC), the figure the monthly credit caps
          {cap > 0 ? <>; the line is today&apos;s cap of {formatCount(cap)}</> : null}.
        </>
      }
      summary={
        total === 0
          ? `No messages accepted in the last ${points.length} months.`
          : `Accepted messages per month: ${points.map((point) => `${point.full} ${formatCount(point.reception_count)}`).join(', ')}.${cap > 0 ? ` Monthly cap ${formatCount(cap)}.` : ''}`
      }
      table={
        <ChartDataTable
          name="sub-account-usage"
          caption="Messages per month"
          columns={[
            { key: 'month', label: 'Month' },
            { key: 'accepted', label: 'Accepted', isNumeric: true },
            { key: 'delivered', label: 'Delivered', isNumeric: true },
            { key: 'bounced', label: 'Bounced', isNumeric: true },
          ]}
          rows={points.map((point) => ({
            key: point.month,
            cells: {
              month: point.full,
              accepted: formatCount(point.reception_count),
              delivered: formatCount(point.delivered_count),
              bounced: formatCount(point.bounced_count),
            },
          }))}
        />
      }
    >
      <BarChart
        responsive
        data={points}
        style={{ width: '100%', height: 240 }}
        margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
      >
        <CartesianGrid vertical={false} stroke="#e2e8f0" />
        <XAxis
          dataKey="month"
          tickFormatter={(month: string) => tick.get(month) ?? ''}
          tick={AXIS_TICK}
          interval="preserveStartEnd"
          minTickGap={12}
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
          labelFormatter={(month) => fullLabel.get(String(month)) ?? String(month)}
          formatter={(value) => formatCount(Number(value))}
          cursor={{ fill: '#f1f5f9' }}
        />
        <Bar
          dataKey="reception_count"
          name="Accepted"
          fill={ACCEPTED_COLOR}
          isAnimationActive={false}
          maxBarSize={40}
        />
        {/* extendDomain: the axis reaches the cap even in months far below it. */}
        {cap > 0 ? (
          <ReferenceLine y={cap} stroke={SERIES_COLORS.threshold} strokeDasharray="4 3" ifOverflow="extendDomain" />
        ) : null}
      </BarChart>
    </ChartCard>
  );
}
