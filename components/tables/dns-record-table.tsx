import { CopyButton } from '@/components/ui/copy-button';
import { Badge } from '@/components/ui/feedback';
import type { DnsRecordObject } from '@/lib/client/types';
import { CellLabel, HostName, STACKED } from './stacked-table';

/** Verified, not checked yet, wrong value or not found (amber when the record is optional). */
export function DnsRecordStatus({ record }: { record: DnsRecordObject }) {
  if (record.propagated) return <Badge tone="green">Verified</Badge>;
  if (record.checked_at === null) return <Badge>Not checked</Badge>;
  if (record.found) return <Badge tone="red">Wrong value</Badge>;
  return <Badge tone={record.required ? 'red' : 'amber'}>Not found</Badge>;
}

/** Each record with a copy button for its name and value, and what DNS held when it does not match. */
export function DnsRecordTable({ records }: { records: DnsRecordObject[] }) {
  return (
    <div className={STACKED.wrapper}>
      <table className={STACKED.table} role="table">
        <thead className={STACKED.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader" className={STACKED.headCell}>Record</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Type</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Host</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Value</th>
            <th scope="col" role="columnheader" className={STACKED.headCell}>Status</th>
          </tr>
        </thead>
        <tbody className={`${STACKED.body} lg:align-top`} role="rowgroup">
          {records.map((record) => (
            <tr key={`${record.type}:${record.host}`} data-dns-record={record.label} className={STACKED.row} role="row">
              <td className={STACKED.cell} role="cell">
                <p className="font-medium">{record.label}</p>
                <p className="text-xs text-slate-600">
                  {record.required ? 'Required' : 'Optional'}
                  <span className="lg:hidden"> · {record.type}</span>
                </p>
              </td>
              <td className={`${STACKED.wideOnlyCell} font-mono text-xs`} role="cell">
                {record.type}
              </td>
              <td className={STACKED.cell} role="cell">
                <CellLabel>Host</CellLabel>
                <div className="flex items-start justify-between gap-2 lg:justify-start">
                  <code className="min-w-0 break-words font-mono text-xs">
                    <HostName host={record.host} />
                  </code>
                  <CopyButton value={record.host} what={`host of ${record.label} record`} />
                </div>
              </td>
              <td className={`${STACKED.cell} lg:max-w-md`} role="cell">
                <CellLabel>Value</CellLabel>
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
              </td>
              <td className={STACKED.cell} role="cell">
                <DnsRecordStatus record={record} />
                {record.checked_at ? <span className="ml-2 text-xs text-slate-600 lg:ml-0 lg:mt-1 lg:block">checked {new Date(record.checked_at).toLocaleTimeString()}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
