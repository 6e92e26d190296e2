'use client';

import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartDataTable } from '@/components/tables/chart-data-table';
import type { PeriodPoint } from '@/lib/client/deliverability-series';
import { formatCount, formatPercent } from '@/lib/client/format';
import { AXIS_TICK, ChartCard, SERIES_COLORS, rateDot } from './chart-card';

const axisPercent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 });

/** Open and click rates per period: messages opened (clicked) at least once among those delivered. */
export function EngagementChart({
  points,
  openRate,
  clickRate,
}: {
  points: PeriodPoint[];
  openRate: number | null;
  clickRate: number | null;
}) {
  const fullLabel = new Map(points.map((point) => [point.key, point.full]));
  const tick = new Map(points.map((point) => [point.key, point.tick]));
  return (
    <ChartCard
      id="engagement"
      title="Open and click rates"
      description="Delivered messages opened or clicked at least once, for mail with tracking on. Opens are approximate: some mail apps load images for privacy, others never do."
      summary={`Open rate ${formatPercent(openRate)} and click rate ${formatPercent(clickRate)} over the period, drawn per period as two lines.`}
      table={
        <ChartDataTable
          name="engagement"
          caption="Open and click rates per period"
          columns={[
            { key: 'period', label: 'Period' },
            { key: 'delivered', label: 'Delivered', isNumeric: true },
            { key: 'opened', label: 'Opened', isNumeric: true },
            { key: 'openRate', label: 'Open rate', isNumeric: true },
            { key: 'clicked', label: 'Clicked', isNumeric: true },
            { key: 'clickRate', label: 'Click rate', isNumeric: true },
          ]}
          rows={points.map((point) => ({
            key: point.key,
            cells: {
              period: point.full,
              delivered: formatCount(point.delivered),
              opened: formatCount(point.opened),
              openRate: formatPercent(point.openRate),
              clicked: formatCount(point.clicked),
              clickRate: formatPercent(point.clickRate),
            },
          }))}
        />
      }
    >
      <LineChart
        responsive
        data={points}
        style={{ width: '100%', height: 220 }}
        margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
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
          domain={[0, 1]}
          tickFormatter={(value: number) => axisPercent.format(value)}
          tick={AXIS_TICK}
          width={44}
          tickLine={false}
          axisLine={false}
          tickCount={5}
        />
        <Tooltip
          labelFormatter={(key) => fullLabel.get(String(key)) ?? String(key)}
          formatter={(value) => formatPercent(value === null || value === undefined ? null : Number(value))}
        />
        <Legend wrapperStyle={{ fontSize: 12, paddingTop: 8 }} iconSize={10} itemSorter={null} />
        <Line
          type="monotone"
          dataKey="openRate"
          name="Open rate"
          stroke={SERIES_COLORS.opened}
          strokeWidth={2}
          dot={rateDot(
            points.map((point) => point.openRate),
            SERIES_COLORS.opened,
          )}
          connectNulls
          isAnimationActive={false}
        />
        <Line
          type="monotone"
          dataKey="clickRate"
          name="Click rate"
          stroke={SERIES_COLORS.clicked}
          strokeWidth={2}
          dot={rateDot(
            points.map((point) => point.clickRate),
            SERIES_COLORS.clicked,
          )}
          connectNulls
          isAnimationActive={false}
        />
      </LineChart>
    </ChartCard>
  );
}
