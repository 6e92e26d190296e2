import type { Services } from '@/lib/core/context';
import type { AttributeType } from '@/lib/core/contacts/attribute-values';
import { loadAttributeDefinitions } from '@/lib/core/contacts/internal/queries';
import { renewImportLease, releaseContactImport } from './claim-contact-import';
import { finishContactImport, type ImportEnd } from './internal/finish-contact-import';
import { csvRecordToRow, jsonLineToRow, planCsvColumns, type ReadRow, type RowError } from './internal/import-rows';
import type { ContactImportRow } from './internal/present';
import { isLiveListOfAccount } from './internal/queries';
import {
  decodeUtf8,
  ImportFileError,
  readCsvRecords,
  readImportChunks,
  readJsonLines,
} from './internal/read-import-file';
import { MAX_KEPT_ERRORS } from './schemas';
import { validateImportRow, type ValidRow } from './internal/validate-import-row';
import { ImportLeaseLostError, writeImportBatch } from './internal/write-import-batch';

export type ImportRunOptions = {
  workerId: string;
  leaseMs: number;
  /** Rows per committed batch: one upsert statement and one progress update each. */
  batchRows: number;
  /** Claims after which an import that keeps being interrupted fails instead. */
  maxAttempts: number;
  isStopping: () => boolean;
};

/** How a run ended: finished either way, handed back (stop), or taken over by another worker. */
export type ImportRunOutcome = 'completed' | 'failed' | 'stopped' | 'lost';

type Job = ContactImportRow;

/**
 * Parsing and PGlite's queries run on this thread: between batches the requests waiting on the
 * event loop (the API, progress polls) get their turn, so an import never stalls the server.
 */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** After an unexpected error (the database went away...), the import waits this long before another claim. */
const RETRY_AFTER_ERROR_MS = 30_000;

/** Step: the rows of the upload, in order, as one shape whatever the format (a CSV header is planned first). */
async function* readRows(
  services: Pick<Services, 'db'>,
  job: Job,
  types: Map<string, AttributeType>,
  progress: { bytes: number },
): AsyncGenerator<ReadRow> {
  const text = decodeUtf8(readImportChunks(services.db, job.id), progress);
  if (job.format === 'jsonl') {
    for await (const line of readJsonLines(text)) yield jsonLineToRow(line);
    return;
  }
  let plan: ReturnType<typeof planCsvColumns> | null = null;
  for await (const record of readCsvRecords(text)) {
    if (plan) yield csvRecordToRow(record, plan);
    else plan = planCsvColumns(record.cells, types);
  }
  if (!plan)
    throw new ImportFileError(
      'the file is empty: a CSV import needs a header row naming its columns (email, first_name, last_name, attribute keys)',
    );
}

/** Step: whether the import may run at all (attempts left, target list still there). */
async function checkRunnable(
  services: Pick<Services, 'db'>,
  job: Job,
  options: ImportRunOptions,
): Promise<ImportEnd | null> {
  if (job.attempts > options.maxAttempts) {
    return {
      status: 'failed',
      reason: `the import was interrupted ${job.attempts - 1} times before it could finish (after row ${job.rowsDone}); upload the rest again`,
    };
  }
  if (job.listId && !(await isLiveListOfAccount(services.db, job.accountId, job.listId))) {
    return { status: 'failed', reason: 'the list was deleted before the import finished' };
  }
  return null;
}

/**
 * Runs one claimed import to its end, as named steps: check it may run, read the upload's rows
 * (skipping those a previous run committed), validate each, commit them in batches with the job's
 * progress, and finish (completed, or failed with the file's problem). A stop between batches
 * hands the job back; the next claim resumes after the last committed batch.
 */
export async function unsafeRunContactImport(
  services: Pick<Services, 'db' | 'logger' | 'now'>,
  job: Job,
  options: ImportRunOptions,
): Promise<ImportRunOutcome> {
  const { db, logger } = services;
  const fence = {
    id: job.id,
    accountId: job.accountId,
    listId: job.listId,
    workerId: options.workerId,
    leaseMs: options.leaseMs,
  };
  let isLost = false;
  const renewal = setInterval(
    () => {
      renewImportLease(db, {
        importId: job.id,
        workerId: options.workerId,
        leaseMs: options.leaseMs,
        now: services.now(),
      })
        .then((isOurs) => (isLost ||= !isOurs))
        .catch((error) => logger.warn({ err: error, importId: job.id }, 'import lease renewal failed'));
    },
    Math.max(1000, Math.floor(options.leaseMs / 3)),
  );

  const progress = { bytes: 0 };
  let consumed = 0;
  let keptErrors = job.errors.length;
  let rows: ValidRow[] = [];
  let errors: RowError[] = [];
  let committedUpTo = job.rowsDone;
  // One batch is written while the next is read and checked (on PostgreSQL they use different CPUs);
  // never more than one, so batches commit in file order. A failed write is thrown by the next commit.
  let writing: Promise<unknown> = Promise.resolve();
  const commit = async (isFinal: boolean) => {
    await writing;
    if (consumed > committedUpTo) {
      const kept = errors.slice(0, Math.max(0, MAX_KEPT_ERRORS - keptErrors));
      const batch = {
        rows,
        errors,
        keptErrors: kept,
        rowsDone: consumed,
        bytesDone: Math.min(progress.bytes, job.sizeBytes),
      };
      keptErrors += kept.length;
      committedUpTo = consumed;
      rows = [];
      errors = [];
      writing = writeImportBatch(db, fence, batch, services.now());
      writing.catch(() => {});
    }
    if (isFinal) await writing;
  };

  try {
    const refusal = await checkRunnable(services, job, options);
    if (refusal) {
      await finishContactImport(db, fence, refusal, services.now());
      return 'failed';
    }
    const definitions = await loadAttributeDefinitions(db, job.accountId);
    const types = new Map(definitions.map((definition) => [definition.key, definition.type]));
    try {
      for await (const read of readRows(services, job, types, progress)) {
        consumed += 1;
        if (consumed <= job.rowsDone) {
          if (consumed % options.batchRows === 0) await yieldToEventLoop();
          continue;
        }
        if (read.kind === 'candidate') {
          const checked = validateImportRow(read.candidate, definitions);
          if ('row' in checked) rows.push(checked.row);
          else errors.push(checked.error);
        } else if (read.kind === 'error') {
          errors.push(read.error);
        }
        if (rows.length + errors.length >= options.batchRows) {
          await commit(false);
          await yieldToEventLoop();
          if (isLost) throw new ImportLeaseLostError('the import lease was lost');
          if (options.isStopping()) {
            await commit(true);
            await releaseContactImport(db, { importId: job.id, workerId: options.workerId });
            return 'stopped';
          }
        }
      }
    } catch (error) {
      if (!(error instanceof ImportFileError)) throw error;
      // Rows read before the problem are valid: they are kept, and the job says where it stopped.
      await commit(true);
      await finishContactImport(db, fence, { status: 'failed', reason: error.message }, services.now());
      return 'failed';
    }
    await commit(true);
    await finishContactImport(db, fence, { status: 'completed' }, services.now());
    return 'completed';
  } catch (error) {
    if (error instanceof ImportLeaseLostError) {
      logger.warn({ importId: job.id }, 'contact import taken over by another worker; this worker stops it');
      return 'lost';
    }
    logger.error({ err: error, importId: job.id }, 'contact import interrupted by an unexpected error; it is retried');
    await releaseContactImport(db, {
      importId: job.id,
      workerId: options.workerId,
      retryAt: new Date(services.now().getTime() + RETRY_AFTER_ERROR_MS),
    }).catch(() => {});
    return 'stopped';
  } finally {
    await writing.catch(() => {});
    clearInterval(renewal);
  }
}
