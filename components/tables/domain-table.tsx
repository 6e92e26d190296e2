import Link from 'next/link';
import { DomainStatusBadge } from '@/components/ui/status-badge';
import type { DomainObject } from '@/lib/client/types';
import { DataTable, HostName, type Column, type TableState } from './data-table';

const columns = (accountId: string): Column<DomainObject>[] => [
  {
    key: 'domain',
    header: 'Domain',
    cell: (domain) => (
      <Link
        href={`/${accountId}/domains/${encodeURIComponent(domain.domain)}`}
        className="font-medium break-words text-brand-700 hover:underline"
      >
        <HostName host={domain.domain} />
      </Link>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    cell: (domain) => (
      <>
        <DomainStatusBadge status={domain.status} />
        <span className="ml-2 text-xs capitalize text-slate-600 lg:hidden">{domain.sending_type}</span>
      </>
    ),
  },
  {
    key: 'sending-type',
    header: 'Sending type',
    isWideOnly: true,
    className: 'capitalize text-slate-700',
    cell: (domain) => domain.sending_type,
  },
  {
    key: 'last-check',
    header: 'Last DNS check',
    cardLabel: true,
    className: 'text-slate-600',
    cell: (domain) =>
      domain.last_dns_check_at ? new Date(domain.last_dns_check_at).toLocaleString() : 'Not checked yet',
  },
];

export function DomainTable({
  accountId,
  domains,
  state,
}: {
  accountId: string;
  domains: DomainObject[] | undefined;
  state?: TableState;
}) {
  return (
    <DataTable
      caption="Domains"
      columns={columns(accountId)}
      rows={domains}
      rowKey={(domain) => domain.id}
      rowAttributes={(domain) => ({ 'data-domain-row': domain.domain })}
      {...state}
    />
  );
}
