'use client';

import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { BounceClassificationChart } from '@/components/charts/bounce-classification-chart';
import { SERIES_COLORS } from '@/components/charts/chart-card';
import { DeliveryTimeChart } from '@/components/charts/delivery-time-chart';
import { EngagementChart } from '@/components/charts/engagement-chart';
import { OutcomeChart } from '@/components/charts/outcome-chart';
import { RateThresholdChart } from '@/components/charts/rate-threshold-chart';
import { DeliverabilityFilterForm } from '@/components/forms/deliverability-filter-form';
import { ProviderPacingPanel } from '@/components/views/provider-pacing-panel';
import { ProviderStatisticsTable } from '@/components/tables/provider-statistics-table';
import { mayOpen } from '@/components/layout/sections';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { StatCard } from '@/components/ui/stat-card';
import { ApiError } from '@/lib/client/api';
import {
  averageDeliveryTime,
  bounceClassifications,
  bounceRateOf,
  clickRateOf,
  deliveryTimesByDomain,
  openRateOf,
  periodPoints,
  totalsOf,
} from '@/lib/client/deliverability-series';
import { formatCount, formatPercent } from '@/lib/client/format';
import { useCurrentUser, useDomains } from '@/lib/client/queries';
import { useDeliverabilitySettings, useStatisticsReport } from '@/lib/client/statistics-queries';
import {
  describeWindow,
  PROVIDER_OPTIONS,
  readStatisticsView,
  statisticsQuery,
  statisticsViewSearch,
  statisticsWindow,
  type StatisticsView,
} from '@/lib/client/statistics-view';
import type { DeliverabilitySettings, ProviderStatistics } from '@/lib/client/types';

const GROUP_WORDS = { hour: 'hour', day: 'day', week: 'week', month: 'month' } as const;
const PROVIDER_LABELS: Record<string, string> = Object.fromEntries(PROVIDER_OPTIONS);

/** The clock, to the minute: relative periods move on while the page stays open. */
function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The page people open first every morning: what became of the mail, per period, from the same
 * statistics endpoints as the API (with the member's scopes). Period and filters live in the URL, so
 * a view can be shared; buckets are UTC periods, labelled in the viewer's time zone.
 */
export function DeliverabilityView({ accountId }: { accountId: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const view = readStatisticsView(new URLSearchParams(params.toString()));
  const now = useMinuteClock();
  const period = statisticsWindow(view, now);
  const query = statisticsQuery(view, period);

  const me = useCurrentUser();
  const scopes = me.data?.accounts.find((account) => account.id === accountId)?.scopes ?? [];
  const isLoaded = Boolean(me.data);
  const canRead = isLoaded && mayOpen(scopes, 'statistics-transactional:read');
  const domains = useDomains(accountId, { enabled: isLoaded && mayOpen(scopes, 'domains:read') });
  const settings = useDeliverabilitySettings(accountId, { enabled: canRead });
  const outcomes = useStatisticsReport(accountId, 'deliverability', query, { enabled: canRead });
  const bounces = useStatisticsReport(accountId, 'bounce', query, { enabled: canRead });
  const times = useStatisticsReport(accountId, 'delivery-time', query, { enabled: canRead });
  const providers = useStatisticsReport(accountId, 'providers', query, { enabled: canRead });

  const show = (next: StatisticsView) => {
    const search = statisticsViewSearch(next);
    router.push(`${pathname}${search ? `?${search}` : ''}`, { scroll: false });
  };
  const reports = [outcomes, bounces, times, providers, settings];
  const failure = reports.find((report) => report.error)?.error ?? null;
  const isWaiting = !isLoaded || (canRead && reports.some((report) => report.isPending && !report.error));

  return (
    <>
      <PageHeader
        title="Deliverability"
        description="What became of the mail this account sent: outcomes, engagement, bounces and delivery time, and how close each sending domain is to a pause."
      />
      {isLoaded && !canRead ? (
        <Alert tone="warning" title="You cannot view statistics">
          Your role in this account does not include the <code>statistics-transactional:read</code> scope. Ask an
          Administrator if you need it.
        </Alert>
      ) : null}
      {isLoaded && canRead ? (
        <div className="space-y-6">
          {/* Above the filters: the server's sending speed now, not a figure of the chosen period. */}
          <ProviderPacingPanel accountId={accountId} />
          <DeliverabilityFilterForm
            key={params.toString()}
            view={view}
            domains={
              domains.data
                ? domains.data.data.map((domain) => domain.domain)
                : domains.isPending && domains.fetchStatus !== 'idle'
                  ? []
                  : null
            }
            onChange={show}
          />
          <p className="text-xs text-slate-600 first-letter:uppercase" data-testid="statistics-scope">
            {describeWindow(view, period)} · {view.domain ? `sent from ${view.domain}` : 'all sender domains'}
            {view.tags ? ` · tagged ${view.tags.split(',').join(' or ')}` : ''}
            {view.provider ? ` · to ${PROVIDER_LABELS[view.provider]} recipients` : ''} · per{' '}
            {GROUP_WORDS[period.groupBy]} (UTC), times in your time zone (
            {Intl.DateTimeFormat().resolvedOptions().timeZone})
          </p>
          {failure ? (
            <StatisticsError error={failure} onRetry={() => reports.forEach((report) => void report.refetch())} />
          ) : null}
          {isWaiting && !failure ? <LoadingState label="Loading statistics…" /> : null}
          {!isWaiting && !failure && outcomes.data && bounces.data && times.data && providers.data && settings.data ? (
            <DeliverabilityReport
              accountId={accountId}
              view={view}
              windowLabel={describeWindow(view, period)}
              points={periodPoints(outcomes.data.data, period)}
              classes={bounceClassifications(bounces.data.data)}
              domainTimes={deliveryTimesByDomain(times.data.data)}
              averageTime={averageDeliveryTime(times.data.data)}
              settings={settings.data}
              providers={providers.data.data}
              onClearFilters={
                view.domain || view.tags || view.provider
                  ? () => show({ ...view, domain: '', tags: '', provider: '' })
                  : null
              }
            />
          ) : null}
        </div>
      ) : null}
      {!isLoaded ? <LoadingState /> : null}
    </>
  );
}

function StatisticsError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  if (error instanceof ApiError && error.status === 403) {
    return (
      <Alert tone="warning" title="You cannot view these statistics">
        {error.message}
      </Alert>
    );
  }
  return (
    <div className="space-y-3">
      <Alert tone="error" title="Statistics could not be loaded">
        {error.message}
      </Alert>
      <Button variant="secondary" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

function DeliverabilityReport({
  accountId,
  view,
  windowLabel,
  points,
  classes,
  domainTimes,
  averageTime,
  settings,
  providers,
  onClearFilters,
}: {
  accountId: string;
  view: StatisticsView;
  windowLabel: string;
  points: ReturnType<typeof periodPoints>;
  classes: ReturnType<typeof bounceClassifications>;
  domainTimes: ReturnType<typeof deliveryTimesByDomain>;
  averageTime: number | null;
  settings: DeliverabilitySettings;
  providers: ProviderStatistics[];
  onClearFilters: (() => void) | null;
}) {
  const totals = totalsOf(points);
  const isEmpty =
    totals.accepted + totals.delivered + totals.deferred + totals.bounced + totals.failed + totals.suppressed === 0;
  if (isEmpty) {
    return (
      <EmptyState
        title={`No mail in ${windowLabel}`}
        action={
          onClearFilters ? (
            <Button variant="secondary" onClick={onClearFilters}>
              Show every domain, tag and provider
            </Button>
          ) : (
            <Link href={`/${accountId}/messages`} className="text-sm font-medium text-brand-700 hover:underline">
              Open the message log
            </Link>
          )
        }
      >
        {onClearFilters
          ? `Nothing was sent${view.domain ? ` from ${view.domain}` : ''}${view.tags ? ` with the tag${view.tags.includes(',') ? 's' : ''} ${view.tags}` : ''}${view.provider ? ` to ${PROVIDER_LABELS[view.provider]} recipients` : ''} in this period. Clear the filters or pick a longer period.`
          : 'Nothing was sent in this period. Pick a longer period, or send a message: its outcome shows here within seconds.'}
      </EmptyState>
    );
  }

  const bounce = settings.bounce_rate;
  const complaint = settings.complaint_rate;
  const bounceRate = bounceRateOf(totals);
  const isOverLimit = bounceRate !== null && bounceRate > bounce.pause_above;
  const limitLabel = `Pause above ${formatPercent(bounce.pause_above)}`;
  return (
    <div className="space-y-6">
      {isOverLimit ? (
        <Alert
          tone="warning"
          title={`Bounce rate ${formatPercent(bounceRate)} is above the pause limit of ${formatPercent(bounce.pause_above)}`}
        >
          A sending domain pauses when, within {bounce.window_hours} h, at least {formatCount(bounce.min_volume)}{' '}
          messages were delivered or bounced and more than {formatPercent(bounce.pause_above)} of them bounced. Check
          the{' '}
          <Link href={`/${accountId}/domains`} className="font-medium underline">
            domains
          </Link>{' '}
          and clean the addresses that bounce.
        </Alert>
      ) : null}
      <section aria-label="Totals" className="grid grid-cols-2 gap-2 sm:grid-cols-3 sm:gap-4 xl:grid-cols-6">
        <StatCard name="accepted" label="Accepted" value={formatCount(totals.accepted)} tone="blue" />
        <StatCard name="delivered" label="Delivered" value={formatCount(totals.delivered)} tone="green" />
        <StatCard
          name="deferred"
          label="Deferred"
          value={formatCount(totals.deferred)}
          tone="amber"
          detail="attempts retried"
        />
        <StatCard name="bounced" label="Bounced" value={formatCount(totals.bounced)} tone="red" />
        <StatCard
          name="failed"
          label="Failed"
          value={formatCount(totals.failed)}
          tone="red"
          detail="gave up after retries"
        />
        <StatCard name="suppressed" label="Suppressed" value={formatCount(totals.suppressed)} detail="not sent" />
      </section>
      <section aria-label="Rates" className="grid grid-cols-2 gap-2 sm:gap-4 lg:grid-cols-4">
        <StatCard
          name="bounce-rate"
          label="Bounce rate"
          value={formatPercent(bounceRate)}
          tone={isOverLimit ? 'red' : 'green'}
          detail={`Pauses above ${formatPercent(bounce.pause_above)} (${bounce.window_hours} h, ${formatCount(bounce.min_volume)}+ messages)`}
        />
        <StatCard
          name="complaint-rate"
          label="Complaint rate"
          value={complaint.is_measured ? formatPercent(0) : '—'}
          detail={
            complaint.is_measured
              ? `Pauses above ${formatPercent(complaint.pause_above)}`
              : `Complaints are received, not counted here yet · keep under ${formatPercent(complaint.pause_above)}`
          }
        />
        <StatCard
          name="open-rate"
          label="Open rate"
          value={formatPercent(openRateOf(totals))}
          tone="blue"
          detail={`${formatCount(totals.opened)} opened`}
        />
        <StatCard
          name="click-rate"
          label="Click rate"
          value={formatPercent(clickRateOf(totals))}
          tone="blue"
          detail={`${formatCount(totals.clicked)} clicked`}
        />
      </section>
      <OutcomeChart points={points} />
      <div className="grid gap-6 lg:grid-cols-2">
        <RateThresholdChart
          id="bounce-rate"
          title="Bounce rate"
          description={`Bounces among messages delivered or bounced. The dashed line is the limit that pauses a domain (PAUSE_BOUNCE_RATE), measured over ${bounce.window_hours} h once ${formatCount(bounce.min_volume)} messages were delivered or bounced.`}
          points={points.map((point) => ({
            key: point.key,
            tick: point.tick,
            full: point.full,
            rate: point.bounceRate,
          }))}
          threshold={bounce.pause_above}
          thresholdLabel={limitLabel}
          color={SERIES_COLORS.bounced}
        />
        <RateThresholdChart
          id="complaint-rate"
          title="Complaint rate"
          description={
            complaint.is_measured
              ? 'Spam complaints among delivered messages. The dashed line is the limit that pauses a domain.'
              : `Mailstead receives spam complaints (ARF feedback-loop reports sent to the return-path domain): each one suppresses the address for its domain, marks its campaign list memberships complained, fires the message.complained webhook and shows under Suppressions. This chart does not count them yet, so it stays at 0. The dashed line is the rate to stay under (${formatPercent(complaint.pause_above)}); nothing pauses for it yet.`
          }
          points={points.map((point) => ({ key: point.key, tick: point.tick, full: point.full, rate: 0 }))}
          threshold={complaint.pause_above}
          thresholdLabel={`${complaint.is_enforced ? 'Pause above' : 'Keep under'} ${formatPercent(complaint.pause_above)}`}
          color={SERIES_COLORS.suppressed}
        />
      </div>
      <EngagementChart points={points} openRate={openRateOf(totals)} clickRate={clickRateOf(totals)} />
      <section aria-labelledby="providers-heading" className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h2 id="providers-heading" className="text-base font-semibold">
          By mailbox provider
        </h2>
        <p className="mb-3 text-xs text-slate-600">
          Each recipient domain counts under the provider that runs its MX hosts (Google Workspace domains under Gmail,
          Microsoft 365 under Microsoft). Times are upper bounds of the delivery-time bins.
        </p>
        <ProviderStatisticsTable rows={providers} />
      </section>
      <div className="grid gap-6 lg:grid-cols-2">
        <BounceClassificationChart classes={classes} />
        <DeliveryTimeChart domains={domainTimes} average={averageTime} />
      </div>
    </div>
  );
}
