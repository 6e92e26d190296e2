import Link from 'next/link';
import { CampaignStatusBadge } from '@/components/ui/campaign-status-badge';
import type { CampaignObject } from '@/lib/client/campaign-queries';
import { formatCount, formatDateTime } from '@/lib/client/format';
import { CellLabel, STACKED } from './stacked-table';

/** When a campaign went out, or when it will: what a reader of the list wants to know about each. */
function whenOf(campaign: CampaignObject): string {
  if (campaign.completed_at) return `Sent ${formatDateTime(campaign.completed_at)}`;
  if (campaign.started_at) return `Started ${formatDateTime(campaign.started_at)}`;
  if (campaign.status === 'scheduled' && campaign.send_at) return `Scheduled for ${formatDateTime(campaign.send_at)}`;
  return `Edited ${formatDateTime(campaign.updated_at)}`;
}

export function CampaignTable({ accountId, campaigns }: { accountId: string; campaigns: CampaignObject[] }) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Campaign</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Status</th>
            <th scope="col" role="columnheader" className={`${STACKED.headCell} text-right`}>Recipients</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Sent</th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {campaigns.map((campaign) => (
            <tr key={campaign.id} data-campaign-row={campaign.name} className={`${STACKED.row} max-lg:grid max-lg:grid-cols-2 max-lg:gap-x-4`} role="row">
              <td className={`${STACKED.cell} max-lg:col-span-full`} role="cell">
                <Link href={`/${accountId}/campaigns/${campaign.id}`} className="font-medium text-brand-700 wrap-anywhere hover:underline">
                  {campaign.name}
                </Link>
                {campaign.subject ? <p className="line-clamp-1 text-xs text-slate-600 wrap-anywhere">{campaign.subject}</p> : null}
              </td>
              <td className={STACKED.cell} role="cell">
                <CellLabel>Status</CellLabel>
                <CampaignStatusBadge status={campaign.status} />
              </td>
              <td className={`${STACKED.cell} tabular-nums lg:text-right`} role="cell" data-count="recipients">
                <CellLabel>Recipients</CellLabel>
                {campaign.counts ? formatCount(campaign.counts.recipients) : '—'}
              </td>
              <td className={`${STACKED.cell} max-lg:col-span-full text-slate-700`} role="cell">
                <CellLabel>Sent</CellLabel>
                {whenOf(campaign)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
