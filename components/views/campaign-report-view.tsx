'use client';

import type { ReactNode } from 'react';
import { CampaignReportChart } from '@/components/charts/campaign-report-chart';
import { CampaignLinkTable } from '@/components/tables/campaign-link-table';
import { CampaignPeopleTable } from '@/components/tables/campaign-people-table';
import { Alert, LoadingState } from '@/components/ui/feedback';
import { StatCard } from '@/components/ui/stat-card';
import { useCampaignReport, useCampaignStats, type CampaignStats } from '@/lib/client/campaign-queries';
import { formatCount, formatPercent, rateOf } from '@/lib/client/format';

const CARDS: { name: keyof CampaignStats & string; label: string; tone: 'slate' | 'green' | 'amber' | 'red' | 'blue'; of?: 'recipients' | 'delivered' }[] = [
  { name: 'recipients', label: 'Recipients', tone: 'blue' },
  { name: 'delivered', label: 'Delivered', tone: 'green', of: 'recipients' },
  { name: 'opened', label: 'Opened', tone: 'blue', of: 'delivered' },
  { name: 'clicked', label: 'Clicked', tone: 'blue', of: 'delivered' },
  { name: 'bounced', label: 'Bounced', tone: 'red', of: 'recipients' },
  { name: 'complained', label: 'Complained', tone: 'red', of: 'delivered' },
  { name: 'unsubscribed', label: 'Unsubscribed', tone: 'amber', of: 'delivered' },
];

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="min-w-0 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5" aria-label={title}>
      <h2 className="mb-3 text-base font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/** The report of a campaign that has started: its numbers, engagement over time, links, bounces and unsubscribes. */
export function CampaignReportView({ accountId, campaignId, isLive }: { accountId: string; campaignId: string; isLive: boolean }) {
  const stats = useCampaignStats(accountId, campaignId, isLive);
  const report = useCampaignReport(accountId, campaignId, isLive);
  return (
    <div className="space-y-4">
      {stats.isPending ? <LoadingState label="Loading the numbers…" /> : null}
      {stats.error ? <Alert tone="error" title="The numbers could not be loaded">{stats.error.message}</Alert> : null}
      {stats.data ? (
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
          {CARDS.map((card) => {
            const value = Number(stats.data[card.name]);
            const whole = card.of ? Number(stats.data[card.of]) : null;
            return (
              <StatCard key={card.name} name={card.name} label={card.label} tone={card.tone} value={formatCount(value)} detail={whole === null ? `${formatCount(stats.data.queued)} queued` : `${formatPercent(rateOf(value, whole))} of ${card.of}`} />
            );
          })}
        </div>
      ) : null}
      {report.isPending ? <LoadingState label="Loading the report…" /> : null}
      {report.error ? <Alert tone="error" title="The report could not be loaded">{report.error.message}</Alert> : null}
      {report.data ? (
        <>
          {report.data.engagement.length ? <CampaignReportChart report={report.data} /> : null}
          <Panel title="Top clicked links">
            <CampaignLinkTable links={report.data.links} />
          </Panel>
          <div className="grid gap-4 lg:grid-cols-2">
            <Panel title="Bounces">
              <CampaignPeopleTable accountId={accountId} name="bounces" people={report.data.bounces} emptyText="No message of this campaign has bounced." />
            </Panel>
            <Panel title="Unsubscribes">
              <CampaignPeopleTable accountId={accountId} name="unsubscribes" people={report.data.unsubscribes} emptyText="Nobody has unsubscribed through this campaign." />
            </Panel>
          </div>
        </>
      ) : null}
    </div>
  );
}
