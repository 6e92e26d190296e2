import Link from 'next/link';
import { DomainStatusBadge } from '@/components/ui/status-badge';
import type { DomainObject } from '@/lib/client/types';

export function DomainTable({ accountId, domains }: { accountId: string; domains: DomainObject[] }) {
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-3">Domain</th>
            <th scope="col" className="px-4 py-3">Status</th>
            <th scope="col" className="px-4 py-3">Sending type</th>
            <th scope="col" className="px-4 py-3">Last DNS check</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {domains.map((domain) => (
            <tr key={domain.id} data-domain-row={domain.domain}>
              <td className="px-4 py-3">
                <Link href={`/${accountId}/domains/${encodeURIComponent(domain.domain)}`} className="font-medium text-brand-700 hover:underline">
                  {domain.domain}
                </Link>
              </td>
              <td className="px-4 py-3">
                <DomainStatusBadge status={domain.status} />
              </td>
              <td className="px-4 py-3 capitalize text-slate-700">{domain.sending_type}</td>
              <td className="px-4 py-3 text-slate-600">{domain.last_dns_check_at ? new Date(domain.last_dns_check_at).toLocaleString() : 'Not checked yet'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
