import Link from 'next/link';
import { DomainStatusBadge } from '@/components/ui/status-badge';
import type { DomainObject } from '@/lib/client/types';
import { CellLabel, HostName, STACKED } from './stacked-table';

export function DomainTable({ accountId, domains }: { accountId: string; domains: DomainObject[] }) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Domain</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Status</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Sending type</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Last DNS check</th>
          </tr>
        </thead>
        <tbody className={STACKED.body} role="rowgroup">
          {domains.map((domain) => (
            <tr key={domain.id} data-domain-row={domain.domain} className={STACKED.row} role="row">
              <td className={STACKED.cell} role="cell">
                <Link href={`/${accountId}/domains/${encodeURIComponent(domain.domain)}`} className="font-medium break-words text-brand-700 hover:underline">
                  <HostName host={domain.domain} />
                </Link>
              </td>
              <td className={STACKED.cell} role="cell">
                <DomainStatusBadge status={domain.status} />
                <span className="ml-2 text-xs capitalize text-slate-600 lg:hidden">{domain.sending_type}</span>
              </td>
              <td className={`${STACKED.wideOnlyCell} capitalize text-slate-700`} role="cell">
                {domain.sending_type}
              </td>
              <td className={`${STACKED.cell} text-slate-600`} role="cell">
                <CellLabel>Last DNS check</CellLabel>
                {domain.last_dns_check_at ? new Date(domain.last_dns_check_at).toLocaleString() : 'Not checked yet'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
