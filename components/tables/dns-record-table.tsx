import { CopyButton } from '@/components/ui/copy-button';
import { Badge } from '@/components/ui/feedback';
import type { DnsRecordObject } from '@/lib/client/types';

function RecordStatus({ record }: { record: DnsRecordObject }) {
  if (record.propagated) return <Badge tone="green">Verified</Badge>;
  if (record.checked_at === null) return <Badge>Not checked</Badge>;
  if (record.found) return <Badge tone="red">Wrong value</Badge>;
  return <Badge tone={record.required ? 'red' : 'amber'}>Not found</Badge>;
}

/** Each record with a copy button for its name and value, and what DNS held when it does not match. */
export function DnsRecordTable({ records }: { records: DnsRecordObject[] }) {
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-3">Record</th>
            <th scope="col" className="px-4 py-3">Type</th>
            <th scope="col" className="px-4 py-3">Host</th>
            <th scope="col" className="px-4 py-3">Value</th>
            <th scope="col" className="px-4 py-3">Status</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 align-top">
          {records.map((record) => (
            <tr key={`${record.type}:${record.host}`} data-dns-record={record.label}>
              <td className="px-4 py-3">
                <p className="font-medium">{record.label}</p>
                <p className="text-xs text-slate-500">{record.required ? 'Required' : 'Optional'}</p>
              </td>
              <td className="px-4 py-3 font-mono text-xs">{record.type}</td>
              <td className="px-4 py-3">
                <div className="flex items-start gap-2">
                  <code className="break-all font-mono text-xs">{record.host}</code>
                  <CopyButton value={record.host} label="Copy" />
                </div>
              </td>
              <td className="max-w-md px-4 py-3">
                <div className="flex items-start gap-2">
                  <code className="line-clamp-3 break-all font-mono text-xs" title={record.content}>
                    {record.priority !== undefined ? `${record.priority} ` : ''}
                    {record.content}
                  </code>
                  <CopyButton value={record.content} label="Copy" />
                </div>
                {!record.propagated && record.found ? (
                  <p className="mt-2 break-all text-xs text-red-700" data-found>
                    Found instead: <code>{record.found.join(' | ')}</code>
                  </p>
                ) : null}
                {record.error ? (
                  <p className="mt-2 text-xs text-amber-700" data-dns-error>
                    Last check could not decide: {record.error}. The previous result is kept.
                  </p>
                ) : null}
              </td>
              <td className="px-4 py-3">
                <RecordStatus record={record} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
