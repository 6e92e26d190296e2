'use client';

import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { ImportMappingForm, type ImportPlan } from '@/components/forms/import-mapping-form';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { Alert, LoadingState, PageHeader } from '@/components/ui/feedback';
import { countCsvRows, readCsvPreview, remapCsv, type CsvPreview } from '@/lib/client/csv-file';
import { useAttributeDefinitions } from '@/lib/client/contact-queries';
import { formatCount } from '@/lib/client/format';
import { useStartImport } from '@/lib/client/import-queries';
import { useLists } from '@/lib/client/list-queries';
import { MAX_IMPORT_BYTES } from '@/lib/core/contact-imports/schemas';
import { ImportProgressPanel } from './import-progress-panel';

type Picked = { file: File; preview: CsvPreview; rowCount: number | null };

/**
 * Import a CSV file: pick it, check the first rows and map its columns, choose a list, start; then
 * watch the job. The job's id goes into the URL, so a reload keeps watching it.
 */
export function ContactImportView({ accountId }: { accountId: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  // The job just started is shown at once; the URL (for reloads) catches up a moment later.
  const [startedId, setStartedId] = useState<string | null>(null);
  // The file as uploaded, kept to put refused rows' own cells into their download.
  const [uploaded, setUploaded] = useState<Blob | null>(null);
  const importId = startedId ?? params.get('import');
  const { can } = useAccountScopes(accountId);
  const definitions = useAttributeDefinitions(accountId);
  const lists = useLists(accountId, 'limit=100', { enabled: can('lists:read') });
  const start = useStartImport(accountId);
  const [picked, setPicked] = useState<Picked | null>(null);
  const [rowTotal, setRowTotal] = useState<number | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [isReading, setIsReading] = useState(false);
  const [isPreparing, setIsPreparing] = useState(false);
  const [prepareError, setPrepareError] = useState<string | null>(null);

  const pick = async (file: File | undefined) => {
    setFileError(null);
    start.reset();
    if (!file) return;
    if (file.size > MAX_IMPORT_BYTES)
      return setFileError(
        `${file.name} is ${formatCount(Math.ceil(file.size / 1024 / 1024))} MB: at most ${formatCount(MAX_IMPORT_BYTES / 1024 / 1024)} MB per import.`,
      );
    setIsReading(true);
    try {
      const preview = await readCsvPreview(file);
      if (!preview.header.length || preview.header.every((name) => !name))
        throw new Error('the first line must name the columns (email, first_name, …)');
      setPicked({ file, preview, rowCount: null });
      // Counting reads the whole file: the preview shows first, the count follows.
      void countCsvRows(file).then((rowCount) =>
        setPicked((current) => (current?.file === file ? { ...current, rowCount } : current)),
      );
    } catch (error) {
      setFileError(`${file.name} could not be read as CSV: ${(error as Error).message}`);
    } finally {
      setIsReading(false);
    }
  };

  const begin = async ({ mapping, listId }: ImportPlan) => {
    if (!picked) return;
    setIsPreparing(true);
    setPrepareError(null);
    let body: Blob;
    try {
      body = await remapCsv(picked.file, picked.preview, mapping);
    } catch (error) {
      return setPrepareError(`${picked.file.name} could not be read as CSV: ${(error as Error).message}`);
    } finally {
      setIsPreparing(false);
    }
    start.mutate(
      { file: body, listId },
      {
        onSuccess: (job) => {
          setRowTotal(picked.rowCount);
          setStartedId(job.id);
          setUploaded(body);
          setPicked(null);
          router.replace(`${pathname}?import=${job.id}`, { scroll: false });
        },
      },
    );
  };

  const again = () => {
    setRowTotal(null);
    setStartedId(null);
    setUploaded(null);
    router.replace(pathname, { scroll: false });
  };

  return (
    <>
      <PageHeader
        title="Import contacts"
        description={
          <>
            A CSV file with a header row: an email column, and optionally first and last names and attribute columns.
            Existing contacts (same address) are updated.{' '}
            <Link href={`/${accountId}/contacts`} className="text-brand-700 hover:underline">
              All contacts
            </Link>
          </>
        }
      />
      <div className="space-y-4">
        {importId ? (
          <ImportProgressPanel
            accountId={accountId}
            importId={importId}
            rowTotal={rowTotal}
            uploaded={uploaded}
            onAnother={again}
          />
        ) : picked ? (
          definitions.isPending ? (
            <LoadingState label="Loading attributes…" />
          ) : (
            <ImportMappingForm
              key={picked.file.name + picked.file.lastModified}
              fileName={picked.file.name}
              rowCount={picked.rowCount}
              preview={picked.preview}
              definitions={definitions.data ?? []}
              lists={can('lists:read') ? (lists.data?.data ?? []) : null}
              initialListId={params.get('list_id') ?? ''}
              isStarting={isPreparing || start.isPending}
              error={prepareError ?? start.error?.message ?? null}
              onStart={(plan) => void begin(plan)}
              onCancel={() => setPicked(null)}
            />
          )
        ) : (
          <div className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-10 text-center sm:px-6">
            {fileError ? (
              <div className="mx-auto mb-4 max-w-lg text-left">
                <Alert tone="error">{fileError}</Alert>
              </div>
            ) : null}
            <label className="inline-flex cursor-pointer items-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 focus-within:ring-2 focus-within:ring-brand-600 focus-within:ring-offset-2">
              {isReading ? 'Reading…' : 'Choose a CSV file'}
              <input
                type="file"
                accept=".csv,text/csv"
                className="sr-only"
                aria-label="CSV file"
                onChange={(event) => void pick(event.target.files?.[0])}
              />
            </label>
            <p className="mx-auto mt-3 max-w-md text-sm text-slate-600">
              Up to {formatCount(MAX_IMPORT_BYTES / 1024 / 1024)} MB. The file is read in your browser for the preview;
              nothing is sent until you start.
            </p>
          </div>
        )}
      </div>
    </>
  );
}
