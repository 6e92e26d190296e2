import { CopyButton } from '@/components/ui/copy-button';
import { Badge } from '@/components/ui/feedback';
import type { DnsRecordObject } from '@/lib/client/types';
import { DataTable, HostName, type Column } from './data-table';

/** Verified, not checked yet, wrong value or not found (amber when the record is optional). */
export function DnsRecordStatus({ record }: { record: DnsRecordObject }) {
  if (record.propagated) return <Badge tone="green">Verified</Badge>;
  if (record.checked_at === null) return <Badge>Not checked</Badge>;
  if (record.found) return <Badge tone="red">Wrong value</Badge>;
  return <Badge tone={record.required ? 'red' : 'amber'}>Not found</Badge>;
}

/** Each record with a copy button for its name and value, and what DNS held when it does not match. */
export function DnsRecordTable({ records }: { records: DnsRecordObject[] }) {
  const columns: Column<DnsRecordObject>[] = [
    {
      key: 'record',
      header: 'Record',
      cell: (record) => (
        <>
          <p className="font-medium">{record.label}</p>
          <p className="text-xs text-slate-600">
            {record.required ? 'Required' : 'Optional'}
            <span className="lg:hidden"> · {record.type}</span>
          </p>
        </>
      ),
    },
    { key: 'type', header: 'Type', isWideOnly: true, className: 'font-mono text-xs', cell: (record) => record.type },
    {
      key: 'host',
      header: 'Host',
      cardLabel: true,
      cell: (record) => (
        <div className="flex items-start justify-between gap-2 lg:justify-start">
          <code className="min-w-0 break-words font-mono text-xs">
            <HostName host={record.host} />
          </code>
          <CopyButton value={record.host} what={`host of ${record.label} record`} />
        </div>
      ),
    },
    {
      key: 'value',
      header: 'Value',
      cardLabel: true,
      className: 'lg:max-w-md',
      cell: (record) => (
        <>
          <div className="flex items-start justify-between gap-2 lg:justify-start">
            <code className="line-clamp-4 min-w-0 font-mono text-xs wrap-anywhere" title={record.content}>
              {record.priority !== undefined ? `${record.priority} ` : ''}
              {record.content}
            </code>
            <CopyButton value={record.content} what={`value of ${record.label} record`} />
          </div>
          {!record.propagated && record.found ? (
            <p className="mt-2 text-xs text-red-700 wrap-anywhere" data-found>
              Found instead: <code>{record.found.join(' | ')}</code>
            </p>
          ) : null}
          {record.error ? (
            <p className="mt-2 text-xs text-amber-800" data-dns-error>
              Last check could not decide: {record.error}. The previous result is kept.
            </p>
          ) : null}
        </>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (record) => (
        <>
          <DnsRecordStatus record={record} />
          {record.checked_at ? (
            <span className="ml-2 text-xs text-slate-600 lg:ml-0 lg:mt-1 lg:block">
              checked {new Date(record.checked_at).toLocaleTimeString()}
            </span>
          ) : null}
        </>
      ),
    },
  ];
  return (
    <DataTable
      caption="DNS records"
      columns={columns}
      rows={records}
      rowKey={(record) => `${record.type}:${record.host}`}
      rowAttributes={(record) => ({ 'data-dns-record': record.label })}
      bodyClassName="lg:align-top"
    />
  );
}
