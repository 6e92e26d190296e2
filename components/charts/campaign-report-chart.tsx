'use client';

import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartDataTable } from '@/components/tables/chart-data-table';
import type { CampaignReport } from '@/lib/client/campaign-queries';
import { formatCount } from '@/lib/client/format';
import { AXIS_TICK, ChartCard, SERIES_COLORS, formatAxisCount } from './chart-card';

type Point = CampaignReport['timeline'][number];

/** Past a fortnight of hours the lines are too dense to read: points are summed per day. */
const MAX_HOURLY_POINTS = 14 * 24;

function byDay(points: Point[]): Point[] {
  const days = new Map<string, Point>();
  for (const point of points) {
    const day = `${point.at.slice(0, 10)}T00:00:00.000Z`;
    const sum = days.get(day) ?? { at: day, delivered: 0, opened: 0, clicked: 0 };
    days.set(day, {
      at: day,
      delivered: sum.delivered + point.delivered,
      opened: sum.opened + point.opened,
      clicked: sum.clicked + point.clicked,
    });
  }
  return [...days.values()];
}

/** Deliveries, opens and clicks per hour (per day for long reports) since sending started: every event, bots included. */
export function CampaignReportChart({ report }: { report: CampaignReport }) {
  const isDaily = report.timeline.length > MAX_HOURLY_POINTS;
  const points = isDaily ? byDay(report.timeline) : report.timeline;
  const label = (at: string) =>
    new Date(at).toLocaleString(
      undefined,
      isDaily ? { dateStyle: 'medium' } : { dateStyle: 'short', timeStyle: 'short' },
    );
  const tick = (at: string) =>
    new Date(at).toLocaleString(
      undefined,
      isDaily ? { day: 'numeric', month: 'short' } : { hour: 'numeric', minute: '2-digit' },
    );
  const totals = points.reduce(
    (sum, point) => ({
      delivered: sum.delivered + point.delivered,
      opened: sum.opened + point.opened,
      clicked: sum.clicked + point.clicked,
    }),
    { delivered: 0, opened: 0, clicked: 0 },
  );
  return (
    <ChartCard
      id="campaign-engagement"
      title="Deliveries, opens and clicks over time"
      description={`Per ${isDaily ? 'day' : 'hour'} since sending started, every delivery, open and click (a recipient may open several times). Opens are approximate: some mail apps load images for privacy, others never do.`}
      summary={`${formatCount(totals.delivered)} deliveries, ${formatCount(totals.opened)} opens and ${formatCount(totals.clicked)} clicks since sending started, drawn per ${isDaily ? 'day' : 'hour'} as three lines.`}
      table={
        <ChartDataTable
          name="campaign-engagement"
          caption="Deliveries, opens and clicks per period"
          columns={[
            { key: 'period', label: isDaily ? 'Day' : 'Hour' },
            { key: 'delivered', label: 'Delivered', isNumeric: true },
            { key: 'opened', label: 'Opens', isNumeric: true },
            { key: 'clicked', label: 'Clicks', isNumeric: true },
          ]}
          rows={points.map((point) => ({
            key: point.at,
            cells: {
              period: label(point.at),
              delivered: formatCount(point.delivered),
              opened: formatCount(point.opened),
              clicked: formatCount(point.clicked),
            },
          }))}
        />
      }
    >
      {/* A tooltip left where the pointer was before the page narrowed would widen the page. */}
      <div className="overflow-hidden">
        <LineChart
          responsive
          data={points}
          style={{ width: '100%', height: 220 }}
          margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
        >
          <CartesianGrid vertical={false} stroke="#e2e8f0" />
          <XAxis
            dataKey="at"
            tickFormatter={tick}
            tick={AXIS_TICK}
            interval="preserveStartEnd"
            minTickGap={24}
            tickLine={false}
          />
          <YAxis
            allowDecimals={false}
            tickFormatter={formatAxisCount}
            tick={AXIS_TICK}
            width={40}
            tickLine={false}
            axisLine={false}
          />
          <Tooltip labelFormatter={(at) => label(String(at))} formatter={(value) => formatCount(Number(value))} />
          <Legend wrapperStyle={{ fontSize: 12, paddingTop: 8 }} iconSize={10} itemSorter={null} />
          <Line
            type="monotone"
            dataKey="delivered"
            name="Delivered"
            stroke={SERIES_COLORS.delivered}
            strokeWidth={2}
            dot={points.length < 2}
            isAnimationActive={false}
          />
          <Line
            type="monotone"
            dataKey="opened"
            name="Opens"
            stroke={SERIES_COLORS.opened}
            strokeWidth={2}
            dot={points.length < 2}
            isAnimationActive={false}
          />
          <Line
            type="monotone"
            dataKey="clicked"
            name="Clicks"
            stroke={SERIES_COLORS.clicked}
            strokeWidth={2}
            dot={points.length < 2}
            isAnimationActive={false}
          />
        </LineChart>
      </div>
    </ChartCard>
  );
}
