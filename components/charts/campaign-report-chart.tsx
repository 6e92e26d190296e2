'use client';

import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartDataTable } from '@/components/tables/chart-data-table';
import type { CampaignReport } from '@/lib/client/campaign-queries';
import { formatCount } from '@/lib/client/format';
import { AXIS_TICK, ChartCard, SERIES_COLORS, formatAxisCount } from './chart-card';

/** Opens and clicks per hour (per day for long reports) since sending started: every event, bots included. */
export function CampaignReportChart({ report }: { report: CampaignReport }) {
  const isDaily = report.interval === 'day';
  const label = (at: string) => new Date(at).toLocaleString(undefined, isDaily ? { dateStyle: 'medium' } : { dateStyle: 'short', timeStyle: 'short' });
  const tick = (at: string) => new Date(at).toLocaleString(undefined, isDaily ? { day: 'numeric', month: 'short' } : { hour: 'numeric', minute: '2-digit' });
  const totals = report.engagement.reduce((sum, point) => ({ opens: sum.opens + point.opens, clicks: sum.clicks + point.clicks }), { opens: 0, clicks: 0 });
  return (
    <ChartCard
      id="campaign-engagement"
      title="Opens and clicks over time"
      description={`Per ${isDaily ? 'day' : 'hour'} since sending started, every open and click (a recipient may open several times). Opens are approximate: some mail apps load images for privacy, others never do.`}
      summary={`${formatCount(totals.opens)} opens and ${formatCount(totals.clicks)} clicks since sending started, drawn per ${isDaily ? 'day' : 'hour'} as two lines.`}
      table={
        <ChartDataTable
          name="campaign-engagement"
          caption="Opens and clicks per period"
          columns={[
            { key: 'period', label: isDaily ? 'Day' : 'Hour' },
            { key: 'opens', label: 'Opens', isNumeric: true },
            { key: 'clicks', label: 'Clicks', isNumeric: true },
          ]}
          rows={report.engagement.map((point) => ({ key: point.at, cells: { period: label(point.at), opens: formatCount(point.opens), clicks: formatCount(point.clicks) } }))}
        />
      }
    >
      {/* A tooltip left where the pointer was before the page narrowed would widen the page. */}
      <div className="overflow-hidden">
      <LineChart responsive data={report.engagement} style={{ width: '100%', height: 220 }} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid vertical={false} stroke="#e2e8f0" />
        <XAxis dataKey="at" tickFormatter={tick} tick={AXIS_TICK} interval="preserveStartEnd" minTickGap={24} tickLine={false} />
        <YAxis allowDecimals={false} tickFormatter={formatAxisCount} tick={AXIS_TICK} width={40} tickLine={false} axisLine={false} />
        <Tooltip labelFormatter={(at) => label(String(at))} formatter={(value) => formatCount(Number(value))} />
        <Legend wrapperStyle={{ fontSize: 12, paddingTop: 8 }} iconSize={10} itemSorter={null} />
        <Line type="monotone" dataKey="opens" name="Opens" stroke={SERIES_COLORS.opened} strokeWidth={2} dot={report.engagement.length < 2} isAnimationActive={false} />
        <Line type="monotone" dataKey="clicks" name="Clicks" stroke={SERIES_COLORS.clicked} strokeWidth={2} dot={report.engagement.length < 2} isAnimationActive={false} />
      </LineChart>
      </div>
    </ChartCard>
  );
}
