'use client';

import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { Alert, Badge, LoadingState } from '@/components/ui/feedback';
import { ProgressBar } from '@/components/ui/progress-bar';
import { sectionCard } from '@/components/ui/section-card';
import { readCsvRecords, toCsv } from '@/lib/client/csv-file';
import { formatCount } from '@/lib/client/format';
import { useContactImport } from '@/lib/client/import-queries';
import type { ContactImportObject } from '@/lib/client/types';

const STATUS = {
  queued: ['Waiting for a worker', 'slate'],
  running: ['Importing', 'blue'],
  completed: ['Done', 'green'],
  failed: ['Failed', 'red'],
} as const;

/**
 * How far a job is: rows read of the rows the browser counted in the file when it is known (this
 * page started the job), else the share of the upload's bytes the job reports as processed. Never
 * 100% before the job says it is done.
 */
function progressOf(job: ContactImportObject, rowTotal: number | null): number {
  if (job.status === 'completed') return 1;
  const share = rowTotal
    ? job.counts.processed / rowTotal
    : job.size_bytes > 0
      ? job.processed_bytes / job.size_bytes
      : 0;
  return Math.min(0.99, share);
}

/**
 * The refused rows as CSV: row, email, reason, and (while this page still has the uploaded file) the
 * row's own cells, to fix and import again. A row's cells are added only when its email matches the
 * job's, so a numbering mismatch can never attach another row's data.
 */
async function downloadErrors(job: ContactImportObject, uploaded: Blob | null) {
  const file = uploaded ? await readCsvRecords(uploaded).catch(() => null) : null;
  const emailColumn = file ? file.header.indexOf('email') : -1;
  const cellsOf = (row: number, email: string | null) => {
    const record = file?.byRow(row);
    return record && email !== null && record[emailColumn]?.trim() === email.trim()
      ? record
      : (file?.header.map(() => '') ?? []);
  };
  const csv = toCsv(
    ['row', 'email', 'reason', ...(file?.header ?? [])],
    job.errors.map((error) => [error.row, error.email, error.reason, ...cellsOf(error.row, error.email)]),
  );
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: `import-${job.id}-errors.csv` });
  link.click();
  URL.revokeObjectURL(url);
}

/** The live view of one import job, polled until it finishes, with its refused rows to download. */
export function ImportProgressPanel({
  accountId,
  importId,
  rowTotal,
  uploaded,
  onAnother,
}: {
  accountId: string;
  importId: string;
  rowTotal: number | null;
  uploaded: Blob | null;
  onAnother: () => void;
}) {
  const job = useContactImport(accountId, importId);
  if (job.isPending) return <LoadingState label="Loading the import…" />;
  if (job.error)
    return (
      <Alert tone="error" title="The import could not be loaded">
        {job.error.message}
      </Alert>
    );
  const data = job.data;
  const [label, tone] = STATUS[data.status];
  const isDone = data.status === 'completed' || data.status === 'failed';
  const figures: [string, string, number][] = [
    ['processed', 'Rows read', data.counts.processed],
    ['created', 'Created', data.counts.created],
    ['updated', 'Updated', data.counts.updated],
    ['errors', 'Refused', data.counts.errors],
  ];
  return (
    <section aria-label="Import progress" className={sectionCard} data-import-status={data.status}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Badge tone={tone}>{label}</Badge>
        <p className="text-sm text-slate-700 tabular-nums" data-testid="import-progress-text">
          {formatCount(data.counts.processed)}
          {rowTotal !== null ? ` of ${formatCount(rowTotal)}` : ''} rows ·{' '}
          {Math.floor(progressOf(data, rowTotal) * 100)}%
        </p>
      </div>
      <ProgressBar
        value={progressOf(data, rowTotal)}
        label="Import progress"
        tone={data.status === 'failed' ? 'red' : data.status === 'completed' ? 'green' : 'blue'}
      />
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {figures.map(([name, text, value]) => (
          <div key={name} className="min-w-0" data-import-count={name}>
            <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600">{text}</dt>
            <dd className="text-lg font-semibold tabular-nums">{formatCount(value)}</dd>
          </div>
        ))}
      </dl>
      {data.status === 'failed' ? (
        <Alert tone="error" title="The import stopped">
          {data.failure_reason ?? 'No reason was recorded.'} Rows read before it stopped stay imported.
        </Alert>
      ) : null}
      {data.status === 'completed' ? (
        <Alert tone={data.counts.errors ? 'warning' : 'success'} title="Import finished">
          {formatCount(data.counts.created)} created, {formatCount(data.counts.updated)} updated
          {data.counts.errors ? `, ${formatCount(data.counts.errors)} refused` : ''}.{' '}
          <Link
            href={data.list_id ? `/${accountId}/lists/${data.list_id}` : `/${accountId}/contacts`}
            className="font-medium underline"
          >
            {data.list_id ? 'Open the list' : 'See the contacts'}
          </Link>
        </Alert>
      ) : null}
      {data.errors.length ? <ImportErrors job={data} uploaded={uploaded} /> : null}
      {isDone ? (
        <div className="flex justify-end">
          <Button variant="secondary" onClick={onAnother}>
            Import another file
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function ImportErrors({ job, uploaded }: { job: ContactImportObject; uploaded: Blob | null }) {
  const isCapped = job.counts.errors > job.errors.length;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">Refused rows</h3>
        <Button variant="secondary" size="sm" onClick={() => void downloadErrors(job, uploaded)}>
          Download refused rows (CSV)
        </Button>
      </div>
      {isCapped ? (
        <p className="text-xs text-slate-600">
          The first {formatCount(job.errors.length)} of {formatCount(job.counts.errors)} are kept.
        </p>
      ) : null}
      <ul
        className="max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-md text-sm ring-1 ring-slate-200"
        aria-label="Refused rows"
      >
        {job.errors.slice(0, 50).map((error) => (
          <li key={error.row} className="px-3 py-2" data-import-error-row={error.row}>
            <span className="font-medium tabular-nums">Row {formatCount(error.row)}</span>
            {error.email ? <span className="text-slate-700 wrap-anywhere"> · {error.email}</span> : null}
            <span className="block text-xs text-red-700 wrap-anywhere">{error.reason}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
