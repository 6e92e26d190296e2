'use client';

import type { ReactNode } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartDataTable } from '@/components/tables/chart-data-table';
import { formatPercent } from '@/lib/client/format';
import { AXIS_TICK, ChartCard, SERIES_COLORS, rateDot, rateTicks } from './chart-card';

type RatePoint = { key: string; tick: string; full: string; rate: number | null };

const axisPercent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 });

/**
 * A rate per period with the limit that pauses a domain drawn across it as a dashed warning line.
 * The axis always reaches past the limit, so the line is visible even while the rate is far below.
 */
export function RateThresholdChart({
  id,
  title,
  description,
  points,
  threshold,
  thresholdLabel,
  color,
}: {
  id: string;
  title: string;
  description: ReactNode;
  points: RatePoint[];
  threshold: number;
  thresholdLabel: string;
  color: string;
}) {
  const fullLabel = new Map(points.map((point) => [point.key, point.full]));
  const tick = new Map(points.map((point) => [point.key, point.tick]));
  const highest = Math.max(0, ...points.map((point) => point.rate ?? 0));
  const ticks = rateTicks(Math.min(1, Math.max(threshold * 1.5, highest * 1.1)));
  const over = points.filter((point) => point.rate !== null && point.rate > threshold).length;
  return (
    <ChartCard
      id={id}
      title={title}
      description={description}
      summary={`${title} per period, with the limit at ${formatPercent(threshold)}: ${over === 0 ? 'no period is above it' : `${over} period${over === 1 ? ' is' : 's are'} above it`}.`}
      table={
        <ChartDataTable
          name={id}
          caption={`${title} per period`}
          columns={[
            { key: 'period', label: 'Period' },
            { key: 'rate', label: 'Rate', isNumeric: true },
          ]}
          rows={points.map((point) => ({
            key: point.key,
            cells: { period: point.full, rate: formatPercent(point.rate) },
          }))}
        />
      }
    >
      <LineChart
        responsive
        data={points}
        style={{ width: '100%', height: 200 }}
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
          domain={[0, ticks.at(-1)!]}
          ticks={ticks}
          tickFormatter={(value: number) => axisPercent.format(value)}
          tick={AXIS_TICK}
          width={48}
          tickLine={false}
          axisLine={false}
        />
        <Tooltip
          labelFormatter={(key) => fullLabel.get(String(key)) ?? String(key)}
          formatter={(value) => formatPercent(value === null || value === undefined ? null : Number(value))}
        />
        <ReferenceLine
          y={threshold}
          stroke={SERIES_COLORS.threshold}
          strokeDasharray="6 4"
          ifOverflow="extendDomain"
          label={{ value: thresholdLabel, position: 'insideTopRight', fill: SERIES_COLORS.threshold, fontSize: 12 }}
        />
        <Line
          type="monotone"
          dataKey="rate"
          name={title}
          stroke={color}
          strokeWidth={2}
          dot={rateDot(
            points.map((point) => point.rate),
            color,
          )}
          connectNulls
          isAnimationActive={false}
        />
      </LineChart>
    </ChartCard>
  );
}
