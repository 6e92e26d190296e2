'use client';

import { Bar, BarChart, CartesianGrid, LabelList, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartDataTable } from '@/components/tables/chart-data-table';
import { formatCount, formatPercent } from '@/lib/client/format';
import { AXIS_TICK, ChartCard, SERIES_COLORS, formatAxisCount } from './chart-card';

/** Readable names for the classifications the delivery engine gives bounces (KumoMTA's names). */
const DESCRIPTIONS: Record<string, string> = {
  InvalidRecipient: 'Invalid recipient',
  InactiveMailbox: 'Inactive mailbox',
  BadDomain: 'Bad domain',
  DNSFailure: 'DNS failure',
  PolicyRelated: 'Policy (spam, reputation)',
  QuotaIssues: 'Mailbox full',
  RoutingErrors: 'Routing error',
  ProtocolErrors: 'Protocol error',
  AuthenticationFailed: 'Authentication failed',
  TransientFailure: 'Temporary failure',
  Uncategorized: 'Uncategorized',
};

export const describeClassification = (classification: string) => DESCRIPTIONS[classification] ?? classification;

/** Bounces of the period by classification, largest first. */
export function BounceClassificationChart({ classes }: { classes: { classification: string; count: number }[] }) {
  const total = classes.reduce((sum, entry) => sum + entry.count, 0);
  const data = classes.map((entry) => ({ ...entry, label: describeClassification(entry.classification) }));
  return (
    <ChartCard
      id="bounce-classes"
      title="Bounce classifications"
      description="Why receiving servers refused mail, as classified from their replies."
      summary={
        total === 0
          ? 'No bounces in this period.'
          : `Bounces by classification: ${data.map((entry) => `${entry.label} ${formatCount(entry.count)}`).join(', ')}.`
      }
      table={
        <ChartDataTable
          name="bounce-classes"
          caption="Bounces by classification"
          columns={[
            { key: 'classification', label: 'Classification' },
            { key: 'count', label: 'Bounces', isNumeric: true },
            { key: 'share', label: 'Share', isNumeric: true },
          ]}
          rows={data.map((entry) => ({
            key: entry.classification,
            cells: {
              classification: `${entry.label} (${entry.classification})`,
              count: formatCount(entry.count),
              share: formatPercent(entry.count / total),
            },
          }))}
        />
      }
    >
      {total === 0 ? (
        <p className="py-8 text-center text-sm text-slate-600">No bounces in this period.</p>
      ) : (
        <BarChart
          responsive
          layout="vertical"
          data={data}
          style={{ width: '100%', height: 24 + data.length * 36 }}
          margin={{ top: 0, right: 40, bottom: 0, left: 0 }}
        >
          <CartesianGrid horizontal={false} stroke="#e2e8f0" />
          <XAxis
            type="number"
            tickFormatter={formatAxisCount}
            tick={AXIS_TICK}
            allowDecimals={false}
            tickLine={false}
          />
          <YAxis type="category" dataKey="label" tick={AXIS_TICK} width="auto" tickLine={false} axisLine={false} />
          <Tooltip formatter={(value) => formatCount(Number(value))} cursor={{ fill: '#f1f5f9' }} />
          <Bar dataKey="count" name="Bounces" fill={SERIES_COLORS.bounced} isAnimationActive={false} maxBarSize={24}>
            <LabelList
              dataKey="count"
              position="right"
              formatter={(value) => formatCount(Number(value))}
              style={{ fontSize: 12, fill: '#334155' }}
            />
          </Bar>
        </BarChart>
      )}
    </ChartCard>
  );
}
