'use client';

import Link from 'next/link';
import { DailySendingChart } from '@/components/charts/daily-sending-chart';
import { mayOpen } from '@/components/layout/sections';
import { RecentMessageList } from '@/components/tables/recent-message-list';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { FigureCard } from '@/components/ui/figure-card';
import { useAccountOverview, useApiKeys, useCurrentUser, useDomains, useMessages } from '@/lib/client/queries';
import { FirstSendExample, SetupSteps } from './setup-steps';

/**
 * The account's front page: setup steps until a domain has verified and a first message went out,
 * then live figures (from the statistics rollups, refreshed every 30 s) and the latest messages.
 */
export function OverviewView({ accountId }: { accountId: string }) {
  const me = useCurrentUser();
  const scopes = me.data?.accounts.find((account) => account.id === accountId)?.scopes ?? [];
  const isLoaded = Boolean(me.data);
  const can = (scope: string) => isLoaded && mayOpen(scopes, scope);
  const overview = useAccountOverview(accountId, { enabled: can('statistics-transactional:read') });
  const domains = useDomains(accountId, { enabled: can('domains:read') });
  const keys = useApiKeys(accountId, { enabled: can('api-keys:read') });
  const recent = useMessages(accountId, 'limit=8', { enabled: can('messages:read'), refetchInterval: 30_000 });

  const isWaiting = !isLoaded || [overview, domains, keys].some((query) => query.isLoading);
  const hasVerifiedDomain = (domains.data?.data ?? []).some((domain) => domain.status !== 'pending');
  const hasSent = overview.data?.has_sent_message ?? false;
  // A role that cannot see one of the two is judged on the other; neither visible means no checklist.
  const isSetupDone =
    (can('domains:read') ? hasVerifiedDomain : true) && (can('statistics-transactional:read') ? hasSent : true);
  const troubled = (domains.data?.data ?? []).filter(
    (domain) => domain.status === 'failing' || domain.status === 'paused',
  );

  return (
    <>
      <PageHeader
        title="Overview"
        description={
          isWaiting ? undefined : isSetupDone ? 'Sending from this account, live.' : 'Get this account ready to send.'
        }
      />
      {isWaiting ? <LoadingState /> : null}
      {!isWaiting && !isSetupDone ? (
        <SetupSteps
          accountId={accountId}
          steps={[
            {
              title: 'Add and verify a sending domain',
              body: 'Publish the DNS records Mailstead shows you (SPF, DKIM, DMARC, return path) and check them.',
              href: `/${accountId}/domains`,
              isDone: hasVerifiedDomain,
            },
            // Only for roles that can see keys: a step nobody in the role can check off would stay forever.
            ...(can('api-keys:read')
              ? [
                  {
                    title: 'Create an API key',
                    body: 'Keys authenticate your applications against the v2 API. Give each key only the scopes it needs.',
                    href: `/${accountId}/api-keys`,
                    isDone: (keys.data?.data.length ?? 0) > 0,
                  },
                ]
              : []),
            {
              title: 'Send a first message',
              body: 'Through the v2 API with your key, from a verified domain: the request below is ready to copy.',
              href: `/${accountId}/messages`,
              isDone: hasSent,
            },
          ]}
        >
          {!hasSent ? (
            <FirstSendExample
              accountId={accountId}
              certificateFile={overview.data?.self_signed_certificate_file ?? null}
            />
          ) : null}
        </SetupSteps>
      ) : null}
      {!isWaiting && isSetupDone ? (
        <div className="space-y-8">
          {troubled.map((domain) => (
            <Alert
              key={domain.id}
              tone="warning"
              title={`${domain.domain} is ${domain.status === 'paused' ? 'paused' : 'failing its DNS checks'}`}
            >
              {domain.status === 'paused'
                ? 'Mail from it is refused until someone unpauses it.'
                : 'A required record that verified before no longer does.'}{' '}
              <Link
                href={`/${accountId}/domains/${encodeURIComponent(domain.domain)}`}
                className="font-medium underline"
              >
                Open {domain.domain}
              </Link>
            </Alert>
          ))}
          {overview.error ? (
            <Alert tone="error" title="Figures could not be loaded">
              {overview.error.message}
            </Alert>
          ) : null}
          {overview.data ? (
            <section aria-labelledby="figures-heading" className="space-y-4">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 id="figures-heading" className="text-base font-semibold">
                  Today
                </h2>
                <p className="text-xs text-slate-600">
                  Updated {new Date(overview.data.generated_at).toLocaleTimeString()} · sandbox messages included
                </p>
              </div>
              <div className="grid grid-cols-3 gap-2 sm:gap-4">
                <FigureCard
                  name="sent"
                  label="Sent"
                  today={overview.data.today.sent}
                  week={overview.data.last_7_days.sent}
                />
                <FigureCard
                  name="delivered"
                  label="Delivered"
                  today={overview.data.today.delivered}
                  week={overview.data.last_7_days.delivered}
                  tone="green"
                />
                <FigureCard
                  name="bounced"
                  label="Bounced"
                  today={overview.data.today.bounced}
                  week={overview.data.last_7_days.bounced}
                  tone="red"
                />
              </div>
              <p className="text-sm text-slate-600" data-testid="other-figures">
                Last 7 days: {overview.data.last_7_days.deferred.toLocaleString()} deferred attempts,{' '}
                {overview.data.last_7_days.failed.toLocaleString()} failed,{' '}
                {overview.data.last_7_days.suppressed.toLocaleString()} not sent to suppressed addresses.
              </p>
              <div className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
                <DailySendingChart days={overview.data.days} />
              </div>
              <Link
                href={`/${accountId}/deliverability`}
                className="inline-block text-sm font-medium text-brand-700 hover:underline"
              >
                Deliverability: rates, bounces and delivery time
              </Link>
            </section>
          ) : null}
          {can('messages:read') ? (
            <section aria-labelledby="recent-heading" className="space-y-3">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 id="recent-heading" className="text-base font-semibold">
                  Recent activity
                </h2>
                <Link href={`/${accountId}/messages`} className="text-sm font-medium text-brand-700 hover:underline">
                  All messages
                </Link>
              </div>
              {recent.error ? <Alert tone="error">{recent.error.message}</Alert> : null}
              {recent.data && recent.data.data.length === 0 ? <EmptyState title="No messages yet" /> : null}
              {recent.data && recent.data.data.length > 0 ? (
                <RecentMessageList accountId={accountId} messages={recent.data.data} />
              ) : null}
            </section>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
