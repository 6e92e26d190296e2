'use client';

import { Bar, BarChart, CartesianGrid, LabelList, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartDataTable } from '@/components/tables/chart-data-table';
import { formatCount, formatDuration } from '@/lib/client/format';
import { AXIS_TICK, ChartCard, SERIES_COLORS } from './chart-card';

const SHOWN = 10;
// Long enough to tell domains apart, short enough to leave a phone's chart some bar; the table has them whole.
const shorten = (domain: string) => (domain.length > 22 ? `${domain.slice(0, 21)}…` : domain);

/** Average time from acceptance to delivery per recipient domain, for the busiest domains. */
export function DeliveryTimeChart({
  domains,
  average,
}: {
  domains: { domain: string; seconds: number; count: number }[];
  average: number | null;
}) {
  const shown = domains.slice(0, SHOWN);
  return (
    <ChartCard
      id="delivery-time"
      title="Delivery time by recipient domain"
      description={
        <>
          From acceptance to the receiving server&apos;s yes, retries included; average over the period{' '}
          <strong className="font-semibold text-slate-800">{formatDuration(average)}</strong>.
          {domains.length > SHOWN ? ` The ${SHOWN} busiest of ${formatCount(domains.length)} domains.` : ''}
        </>
      }
      summary={
        shown.length === 0
          ? 'No deliveries in this period.'
          : `Average delivery time per recipient domain: ${shown.map((entry) => `${entry.domain} ${formatDuration(entry.seconds)}`).join(', ')}.`
      }
      table={
        <ChartDataTable
          name="delivery-time"
          caption="Average delivery time per recipient domain"
          columns={[
            { key: 'domain', label: 'Recipient domain' },
            { key: 'seconds', label: 'Average', isNumeric: true },
            { key: 'count', label: 'Delivered', isNumeric: true },
          ]}
          rows={domains.map((entry) => ({
            key: entry.domain,
            cells: { domain: entry.domain, seconds: formatDuration(entry.seconds), count: formatCount(entry.count) },
          }))}
        />
      }
    >
      {shown.length === 0 ? (
        <p className="py-8 text-center text-sm text-slate-600">No deliveries in this period.</p>
      ) : (
        <BarChart
          responsive
          layout="vertical"
          data={shown}
          style={{ width: '100%', height: 24 + shown.length * 36 }}
          margin={{ top: 0, right: 56, bottom: 0, left: 0 }}
        >
          <CartesianGrid horizontal={false} stroke="#e2e8f0" />
          <XAxis
            type="number"
            tickFormatter={(value: number) => formatDuration(value)}
            tick={AXIS_TICK}
            tickLine={false}
            tickCount={3}
          />
          <YAxis
            type="category"
            dataKey="domain"
            tickFormatter={shorten}
            tick={AXIS_TICK}
            width="auto"
            tickLine={false}
            axisLine={false}
          />
          <Tooltip formatter={(value) => formatDuration(Number(value))} cursor={{ fill: '#f1f5f9' }} />
          <Bar
            dataKey="seconds"
            name="Average delivery time"
            fill={SERIES_COLORS.opened}
            isAnimationActive={false}
            maxBarSize={24}
          >
            <LabelList
              dataKey="seconds"
              position="right"
              formatter={(value) => formatDuration(Number(value))}
              style={{ fontSize: 12, fill: '#334155' }}
            />
          </Bar>
        </BarChart>
      )}
    </ChartCard>
  );
}
