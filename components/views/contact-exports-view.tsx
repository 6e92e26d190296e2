'use client';

import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { Alert, Badge, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { ProgressBar } from '@/components/ui/progress-bar';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { endpointPath } from '@/lib/client/endpoints';
import { useContactExports, type ContactExportObject } from '@/lib/client/export-queries';
import { formatBytes, formatCount, formatDateTime } from '@/lib/client/format';
import { useLists } from '@/lib/client/list-queries';

const STATUS = {
  queued: ['Waiting for a worker', 'slate'],
  running: ['Exporting', 'blue'],
  done: ['Ready', 'green'],
  failed: ['Failed', 'red'],
  expired: ['Expired', 'slate'],
} as const;

/** Written of the total once the run has counted it; never 100% before the export says it is done. */
function progressOf(job: ContactExportObject): number {
  if (job.status === 'done') return 1;
  return job.total ? Math.min(0.99, job.exported / job.total) : 0;
}

function whatOf(job: ContactExportObject, listNames: Map<string, string>): string {
  if (job.list_id) return `Members of ${listNames.get(job.list_id) ?? 'a deleted list'}`;
  if (job.segment_id) return 'A segment';
  if (job.filter) return 'Contacts matching filters';
  return 'All contacts';
}

/** The account's recent exports: progress while they run, the download while the file is kept, and why one failed. */
export function ContactExportsView({ accountId }: { accountId: string }) {
  const params = useSearchParams();
  const highlighted = params.get('export');
  const { can } = useAccountScopes(accountId);
  const exports = useContactExports(accountId);
  const lists = useLists(accountId, 'limit=100', { enabled: can('lists:read') });
  const listNames = new Map((lists.data?.data ?? []).map((list) => [list.id, list.name]));
  const rows = exports.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Contact exports"
        description="CSV files of your contacts. Start one from Contacts (all, or the current filters) or from a list. Each file can be downloaded for 24 hours."
        actions={
          <Link
            href={`/${accountId}/contacts`}
            className="inline-flex items-center rounded-md bg-white px-3.5 py-2 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50"
          >
            Back to contacts
          </Link>
        }
      />
      {exports.isPending ? <LoadingState label="Loading exports…" /> : null}
      {exports.error ? (
        <Alert tone="error" title="Exports could not be loaded">
          {exports.error.message}
        </Alert>
      ) : null}
      {exports.data && rows.length === 0 ? (
        <EmptyState title="No exports yet">
          Open Contacts and choose Export to download every contact, or the ones your filters show, as a CSV file.
        </EmptyState>
      ) : null}
      {rows.length > 0 ? (
        <ul className="space-y-3" aria-label="Exports">
          {rows.map((job) => (
            <ExportItem
              key={job.id}
              accountId={accountId}
              job={job}
              what={whatOf(job, listNames)}
              isHighlighted={job.id === highlighted}
            />
          ))}
        </ul>
      ) : null}
    </>
  );
}

function ExportItem({
  accountId,
  job,
  what,
  isHighlighted,
}: {
  accountId: string;
  job: ContactExportObject;
  what: string;
  isHighlighted: boolean;
}) {
  const [label, tone] = STATUS[job.status];
  const isRunning = job.status === 'queued' || job.status === 'running';
  const download = endpointPath('GET /v2/accounts/{account_id}/contacts/export/{export_id}/file', {
    account_id: accountId,
    export_id: job.id,
  });
  return (
    <li
      className={`space-y-3 rounded-lg bg-white p-4 shadow-sm sm:p-5 ${isHighlighted ? 'ring-2 ring-brand-600' : 'ring-1 ring-slate-200'}`}
      data-export-status={job.status}
      data-export-id={job.id}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">{what}</p>
          <p className="text-xs text-slate-600">Started {formatDateTime(job.created_at)}</p>
        </div>
        <Badge tone={tone}>{label}</Badge>
      </div>
      {isRunning || job.status === 'done' ? (
        <>
          <ProgressBar
            value={progressOf(job)}
            label="Export progress"
            tone={job.status === 'done' ? 'green' : 'blue'}
          />
          <p className="text-sm text-slate-700 tabular-nums" data-testid="export-progress-text">
            {formatCount(job.exported)}
            {job.total !== null ? ` of ${formatCount(job.total)}` : ''} contacts
            {isRunning ? ` · ${Math.floor(progressOf(job) * 100)}%` : ''}
          </p>
        </>
      ) : null}
      {job.status === 'done' ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <a
            href={download}
            download
            className="inline-flex items-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700"
          >
            Download CSV{job.byte_size !== null ? ` (${formatBytes(job.byte_size)})` : ''}
          </a>
          {job.expires_at ? (
            <span className="text-xs text-slate-600">Available until {formatDateTime(job.expires_at)}</span>
          ) : null}
        </div>
      ) : null}
      {job.status === 'failed' ? (
        <Alert tone="error" title="The export stopped">
          {job.error ?? 'No reason was recorded.'} Start a new export to try again.
        </Alert>
      ) : null}
      {job.status === 'expired' ? (
        <p className="text-sm text-slate-600">
          The file was deleted 24 hours after the export finished. Export again to get a fresh copy.
        </p>
      ) : null}
    </li>
  );
}
