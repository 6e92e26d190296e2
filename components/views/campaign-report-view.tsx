'use client';

import type { ReactNode } from 'react';
import { CampaignReportChart } from '@/components/charts/campaign-report-chart';
import { MailboxProviderChart } from '@/components/charts/mailbox-provider-chart';
import { CampaignLinkTable } from '@/components/tables/campaign-link-table';
import { CampaignPeopleTable } from '@/components/tables/campaign-people-table';
import { Alert, LoadingState } from '@/components/ui/feedback';
import { StatCard } from '@/components/ui/stat-card';
import {
  useCampaignPeople,
  useCampaignReport,
  useCampaignStats,
  type CampaignStats,
} from '@/lib/client/campaign-queries';
import { formatCount, formatPercent, rateOf } from '@/lib/client/format';

const CARDS: {
  name: keyof CampaignStats & string;
  label: string;
  tone: 'slate' | 'green' | 'amber' | 'red' | 'blue';
  of?: 'recipients' | 'delivered';
}[] = [
  { name: 'recipients', label: 'Recipients', tone: 'blue' },
  { name: 'waiting', label: 'Queued', tone: 'slate', of: 'recipients' },
  { name: 'deferred', label: 'Deferred', tone: 'amber', of: 'recipients' },
  { name: 'delivered', label: 'Delivered', tone: 'green', of: 'recipients' },
  { name: 'bounced', label: 'Bounced', tone: 'red', of: 'recipients' },
  { name: 'failed', label: 'Failed', tone: 'red', of: 'recipients' },
  { name: 'opened', label: 'Opened', tone: 'blue', of: 'delivered' },
  { name: 'clicked', label: 'Clicked', tone: 'blue', of: 'delivered' },
  { name: 'complained', label: 'Complained', tone: 'red', of: 'delivered' },
  { name: 'unsubscribed', label: 'Unsubscribed', tone: 'amber', of: 'delivered' },
  // Shown once a cancel took recipients out.
  { name: 'cancelled', label: 'Cancelled', tone: 'slate', of: 'recipients' },
];

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="min-w-0 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5" aria-label={title}>
      <h2 className="mb-3 text-base font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/**
 * The report of a campaign that has started: its numbers, deliveries and engagement over time, mailbox
 * providers and links (the v2 report), and the latest bounces and unsubscribes (an internal read).
 */
export function CampaignReportView({
  accountId,
  campaignId,
  isLive,
}: {
  accountId: string;
  campaignId: string;
  isLive: boolean;
}) {
  const stats = useCampaignStats(accountId, campaignId, isLive);
  const report = useCampaignReport(accountId, campaignId, isLive);
  const people = useCampaignPeople(accountId, campaignId, isLive);
  return (
    <div className="space-y-4">
      {stats.isPending ? <LoadingState label="Loading the numbers…" /> : null}
      {stats.error ? (
        <Alert tone="error" title="The numbers could not be loaded">
          {stats.error.message}
        </Alert>
      ) : null}
      {stats.data ? (
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-5">
          {CARDS.filter((card) => card.name !== 'cancelled' || stats.data.cancelled > 0).map((card) => {
            const value = Number(stats.data[card.name]);
            const whole = card.of ? Number(stats.data[card.of]) : null;
            return (
              <StatCard
                key={card.name}
                name={card.name}
                label={card.label}
                tone={card.tone}
                value={formatCount(value)}
                detail={
                  whole === null
                    ? `${formatCount(stats.data.queued)} handed to delivery`
                    : `${formatPercent(rateOf(value, whole))} of ${card.of}`
                }
              />
            );
          })}
        </div>
      ) : null}
      {report.isPending ? <LoadingState label="Loading the report…" /> : null}
      {report.error ? (
        <Alert tone="error" title="The report could not be loaded">
          {report.error.message}
        </Alert>
      ) : null}
      {report.data ? (
        <>
          {report.data.timeline.length ? <CampaignReportChart report={report.data} /> : null}
          <MailboxProviderChart providers={report.data.providers} />
          <Panel title="Top clicked links">
            <CampaignLinkTable links={report.data.links} />
          </Panel>
        </>
      ) : null}
      {people.error ? (
        <Alert tone="error" title="Bounces and unsubscribes could not be loaded">
          {people.error.message}
        </Alert>
      ) : null}
      {people.data ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <Panel title="Bounces">
            <CampaignPeopleTable
              accountId={accountId}
              name="bounces"
              people={people.data.bounces}
              emptyText="No message of this campaign has bounced."
            />
          </Panel>
          <Panel title="Unsubscribes">
            <CampaignPeopleTable
              accountId={accountId}
              name="unsubscribes"
              people={people.data.unsubscribes}
              emptyText="Nobody has unsubscribed through this campaign."
            />
          </Panel>
        </div>
      ) : null}
    </div>
  );
}
