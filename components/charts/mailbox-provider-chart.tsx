'use client';

import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartDataTable } from '@/components/tables/chart-data-table';
import type { CampaignReport } from '@/lib/client/campaign-queries';
import { formatCount } from '@/lib/client/format';
import { AXIS_TICK, ChartCard, SERIES_COLORS, formatAxisCount } from './chart-card';

const PROVIDER_NAMES: Record<string, string> = {
  gmail: 'Gmail',
  microsoft: 'Microsoft',
  yahoo: 'Yahoo',
  apple: 'Apple',
  other: 'Other',
};

const SERIES = [
  { key: 'delivered', label: 'Delivered' },
  { key: 'opened', label: 'Opened' },
  { key: 'deferred', label: 'Deferred' },
  { key: 'bounced', label: 'Bounced' },
] as const;

/** A campaign's messages per mailbox provider (from the recipient domain's MX hosts): delivered, opened, deferred, bounced. */
export function MailboxProviderChart({ providers }: { providers: CampaignReport['providers'] }) {
  const data = providers.map((entry) => ({ ...entry, label: PROVIDER_NAMES[entry.provider] ?? entry.provider }));
  const isEmpty = data.every((entry) => SERIES.every((series) => entry[series.key] === 0));
  return (
    <ChartCard
      id="campaign-providers"
      title="Mailbox providers"
      description="Messages per mailbox provider, told by the MX hosts of each recipient's domain; opened counts messages opened at least once."
      summary={
        isEmpty
          ? 'No message has an outcome yet.'
          : `Per provider: ${data
              .map(
                (entry) =>
                  `${entry.label} ${formatCount(entry.delivered)} delivered, ${formatCount(entry.opened)} opened`,
              )
              .join('; ')}.`
      }
      table={
        <ChartDataTable
          name="campaign-providers"
          caption="Messages per mailbox provider"
          columns={[
            { key: 'provider', label: 'Provider' },
            ...SERIES.map((series) => ({ key: series.key, label: series.label, isNumeric: true })),
          ]}
          rows={data.map((entry) => ({
            key: entry.provider,
            cells: {
              provider: entry.label,
              ...Object.fromEntries(SERIES.map((series) => [series.key, formatCount(entry[series.key])])),
            },
          }))}
        />
      }
    >
      {isEmpty ? (
        <p className="py-8 text-center text-sm text-slate-600">No message has an outcome yet.</p>
      ) : (
        <div className="overflow-hidden">
          <BarChart
            responsive
            data={data}
            style={{ width: '100%', height: 240 }}
            margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          >
            <CartesianGrid vertical={false} stroke="#e2e8f0" />
            <XAxis dataKey="label" tick={AXIS_TICK} tickLine={false} interval={0} />
            <YAxis
              allowDecimals={false}
              tickFormatter={formatAxisCount}
              tick={AXIS_TICK}
              width={40}
              tickLine={false}
              axisLine={false}
            />
            <Tooltip formatter={(value) => formatCount(Number(value))} cursor={{ fill: '#f1f5f9' }} />
            <Legend wrapperStyle={{ fontSize: 12, paddingTop: 8 }} iconSize={10} itemSorter={null} />
            {SERIES.map((series) => (
              <Bar
                key={series.key}
                dataKey={series.key}
                name={series.label}
                fill={SERIES_COLORS[series.key]}
                isAnimationActive={false}
                maxBarSize={20}
              />
            ))}
          </BarChart>
        </div>
      )}
    </ChartCard>
  );
}
