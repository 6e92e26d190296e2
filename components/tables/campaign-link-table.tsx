import type { CampaignReport } from '@/lib/client/campaign-queries';
import { formatCount } from '@/lib/client/format';
import { DataTable, type Column } from './data-table';

type Link = CampaignReport['links'][number];

const columns: Column<Link>[] = [
  { key: 'link', header: 'Link', className: 'wrap-anywhere', cell: (link) => link.url },
  {
    key: 'clickers',
    header: 'Clickers',
    align: 'right',
    headerClassName: 'w-20 sm:w-28',
    className: 'tabular-nums',
    cell: (link) => formatCount(link.unique_clicks),
  },
  {
    key: 'clicks',
    header: 'Clicks',
    align: 'right',
    headerClassName: 'w-16 sm:w-24',
    className: 'tabular-nums',
    cell: (link) => formatCount(link.clicks),
  },
];

/** The most clicked links: recipients who clicked each (unique) and every click. */
export function CampaignLinkTable({ links }: { links: CampaignReport['links'] }) {
  return (
    <DataTable
      caption="Clicked links"
      layout="grid"
      columns={columns}
      rows={links}
      rowKey={(link) => link.url}
      rowAttributes={(link) => ({ 'data-link': link.url })}
      tableAttributes={{ 'data-table': 'campaign-links' }}
      tableClassName="table-fixed text-sm"
      empty={<p className="text-sm text-slate-600">No tracked link has been clicked yet.</p>}
    />
  );
}
