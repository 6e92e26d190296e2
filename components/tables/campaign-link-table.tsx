import type { CampaignReport } from '@/lib/client/campaign-queries';
import { formatCount } from '@/lib/client/format';

/** The most clicked links: recipients who clicked each (unique) and every click. */
export function CampaignLinkTable({ links }: { links: CampaignReport['links'] }) {
  if (links.length === 0) return <p className="text-sm text-slate-600">No tracked link has been clicked yet.</p>;
  return (
    <table className="w-full table-fixed text-sm" data-table="campaign-links">
      <thead className="text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
        <tr>
          <th scope="col" className="py-2">Link</th>
          <th scope="col" className="w-20 py-2 text-right sm:w-28">Clickers</th>
          <th scope="col" className="w-16 py-2 text-right sm:w-24">Clicks</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {links.map((link) => (
          <tr key={link.url} data-link={link.url}>
            <td className="py-2 pr-2 wrap-anywhere">{link.url}</td>
            <td className="py-2 text-right tabular-nums">{formatCount(link.unique_clickers)}</td>
            <td className="py-2 text-right tabular-nums">{formatCount(link.clicks)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
