import Link from 'next/link';
import { CampaignStatusBadge } from '@/components/ui/campaign-status-badge';
import type { CampaignObject } from '@/lib/client/campaign-queries';
import { formatCount, formatDateTime } from '@/lib/client/format';
import { DataTable, type Column } from './data-table';

/** When a campaign went out, or when it will: what a reader of the list wants to know about each. */
function whenOf(campaign: CampaignObject): string {
  if (campaign.status === 'cancelled') return `Cancelled ${formatDateTime(campaign.updated_at)}`;
  if (campaign.completed_at) return `Sent ${formatDateTime(campaign.completed_at)}`;
  if (campaign.started_at) return `Started ${formatDateTime(campaign.started_at)}`;
  if (campaign.status === 'scheduled' && campaign.send_at) return `Scheduled for ${formatDateTime(campaign.send_at)}`;
  return `Edited ${formatDateTime(campaign.updated_at)}`;
}

export function CampaignTable({ accountId, campaigns }: { accountId: string; campaigns: CampaignObject[] }) {
  const columns: Column<CampaignObject>[] = [
    {
      key: 'campaign',
      header: 'Campaign',
      className: 'max-lg:col-span-full',
      cell: (campaign) => (
        <>
          <Link
            href={`/${accountId}/campaigns/${campaign.id}`}
            className="font-medium text-brand-700 wrap-anywhere hover:underline"
          >
            {campaign.name}
          </Link>
          {campaign.subject ? (
            <p className="line-clamp-1 text-xs text-slate-600 wrap-anywhere">{campaign.subject}</p>
          ) : null}
        </>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      cardLabel: true,
      cell: (campaign) => <CampaignStatusBadge status={campaign.status} />,
    },
    {
      key: 'recipients',
      header: 'Recipients',
      cardLabel: true,
      align: 'right',
      className: 'tabular-nums',
      cellAttributes: () => ({ 'data-count': 'recipients' }),
      cell: (campaign) => (campaign.counts ? formatCount(campaign.counts.recipients) : '—'),
    },
    { key: 'sent', header: 'Sent', cardLabel: true, className: 'max-lg:col-span-full text-slate-700', cell: whenOf },
  ];
  return (
    <DataTable
      caption="Campaigns"
      columns={columns}
      rows={campaigns}
      rowKey={(campaign) => campaign.id}
      rowAttributes={(campaign) => ({ 'data-campaign-row': campaign.name })}
      rowClassName="max-lg:grid max-lg:grid-cols-2 max-lg:gap-x-4"
    />
  );
}
