import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { and, asc, count, eq, gt, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Services } from '@/lib/core/context';
import { loadAttributeDefinitions } from '@/lib/core/contacts/internal/queries';
import type { Db } from '@/lib/db/client';
import { contactExports, contacts } from '@/lib/db/schema';
import { AppError } from '@/lib/shared/errors';
import { releaseContactExport } from './claim-contact-export';
import { exportTtlSeconds } from './schemas';
import { exportHeader, exportRecord, type ExportedContact } from './internal/csv-cells';
import { ensureExportsDir, exportFilePaths, removeExportFiles } from './internal/export-file';
import type { ContactExportRow } from './internal/present';
import { selectionCondition, type ExportSelection } from './internal/selection-condition';

export type ExportRunOptions = {
  workerId: string;
  leaseMs: number;
  /** Contacts per page: one keyset query and one progress update (which renews the lease) each. */
  pageRows: number;
  /** Claims after which an export that keeps being interrupted fails instead. */
  maxAttempts: number;
  isStopping: () => boolean;
};

export type ExportRunOutcome = 'done' | 'failed' | 'stopped' | 'lost';

class ExportLeaseLostError extends Error {}
class ExportStoppedError extends Error {}

const RETRY_AFTER_ERROR_MS = 30_000;
const c = alias(contacts, 'c');

/** Every write of the worker is fenced by its lease: an export taken over is never finished twice. */
async function updateFenced(db: Db, job: ContactExportRow, workerId: string, values: Partial<ContactExportRow>) {
  const updated = await db
    .update(contactExports)
    .set(values)
    .where(and(eq(contactExports.id, job.id), eq(contactExports.lockedBy, workerId)))
    .returning({ id: contactExports.id });
  if (updated.length === 0) throw new ExportLeaseLostError('the export was taken over by another worker');
}

/** Step: one page of the selection after `afterId`, by contact id (the keyset). */
function readPage(db: Db, accountId: string, condition: SQL, afterId: string | null, limit: number) {
  return db
    .select({
      id: c.id,
      email: c.email,
      firstName: c.firstName,
      lastName: c.lastName,
      unsubscribed: c.unsubscribed,
      createdAt: c.createdAt,
      attributes: c.attributes,
    })
    .from(c)
    .where(and(eq(c.accountId, accountId), afterId ? gt(c.id, afterId) : undefined, condition))
    .orderBy(asc(c.id))
    .limit(limit) as Promise<ExportedContact[]>;
}

/**
 * Step: the CSV's records, header first, page after page; each page's count is committed with a
 * renewed lease before the next is read, and a stop or a lost lease ends the stream between pages.
 */
async function* exportRecords(
  services: Pick<Services, 'db' | 'now'>,
  job: ContactExportRow,
  condition: SQL,
  attributeKeys: string[],
  options: ExportRunOptions,
): AsyncGenerator<string[]> {
  yield exportHeader(attributeKeys);
  let afterId: string | null = null;
  let exported = 0;
  for (;;) {
    const page = await readPage(services.db, job.accountId, condition, afterId, options.pageRows);
    for (const contact of page) yield exportRecord(contact, attributeKeys);
    exported += page.length;
    const now = services.now();
    await updateFenced(services.db, job, options.workerId, {
      exportedCount: exported,
      leaseUntil: new Date(now.getTime() + options.leaseMs),
      updatedAt: now,
    });
    if (page.length < options.pageRows) return;
    afterId = page[page.length - 1].id;
    if (options.isStopping()) throw new ExportStoppedError();
  }
}

/**
 * Runs one claimed export from its first row: check it may run, resolve the selection, count it,
 * stream every page through the CSV stringifier into a partial file, then rename it and finish. A
 * restarted export (after a kill or a stop) rewrites its file from the start: rows are never doubled.
 */
export async function unsafeRunContactExport(
  services: Pick<Services, 'db' | 'logger' | 'now' | 'config'>,
  job: ContactExportRow,
  options: ExportRunOptions,
): Promise<ExportRunOutcome> {
  const { db, logger } = services;
  const files = exportFilePaths(services.config, job.id);
  const partial = files.partialOf(job.attempts);
  const fail = async (reason: string) => {
    await updateFenced(db, job, options.workerId, {
      status: 'failed',
      error: reason,
      completedAt: services.now(),
      expiresAt: new Date(services.now().getTime() + exportTtlSeconds(services.config) * 1000),
      lockedBy: null,
      leaseUntil: null,
      updatedAt: services.now(),
    });
    return 'failed' as const;
  };
  try {
    if (job.attempts > options.maxAttempts)
      return await fail(`the export was interrupted ${job.attempts - 1} times before it could finish; start it again`);
    let condition: SQL;
    try {
      condition = await selectionCondition(db, job.accountId, job.selection as ExportSelection);
    } catch (error) {
      if (error instanceof AppError) return await fail(`the export's selection cannot be read: ${error.message}`);
      throw error;
    }
    const [{ total }] = await db
      .select({ total: count() })
      .from(c)
      .where(and(eq(c.accountId, job.accountId), condition));
    await updateFenced(db, job, options.workerId, { totalEstimate: total, updatedAt: services.now() });
    const attributeKeys = (await loadAttributeDefinitions(db, job.accountId))
      .map((definition) => definition.key)
      .sort();

    await ensureExportsDir(services.config);
    // A killed attempt's partial file goes: the file is rewritten from the first row.
    await removeExportFiles(services.config, job.id, { onlyPartials: true });
    // Backpressure end to end: a page is read only when the file has taken the previous one.
    await pipeline(
      Readable.from(exportRecords(services, job, condition, attributeKeys, options)),
      stringify({ record_delimiter: 'unix' }),
      createWriteStream(partial, { mode: 0o600 }),
    );
    const { size } = await stat(partial);
    await rename(partial, files.final);
    const now = services.now();
    await updateFenced(db, job, options.workerId, {
      status: 'done',
      fileName: files.name,
      byteSize: size,
      error: null,
      completedAt: now,
      expiresAt: new Date(now.getTime() + exportTtlSeconds(services.config) * 1000),
      lockedBy: null,
      leaseUntil: null,
      updatedAt: now,
    });
    return 'done';
  } catch (error) {
    await rm(partial, { force: true }).catch(() => {});
    if (error instanceof ExportLeaseLostError) {
      logger.warn({ exportId: job.id }, 'contact export taken over by another worker; this worker stops it');
      return 'lost';
    }
    if (error instanceof ExportStoppedError) {
      await releaseContactExport(db, { exportId: job.id, workerId: options.workerId });
      return 'stopped';
    }
    logger.error({ err: error, exportId: job.id }, 'contact export interrupted by an unexpected error; it is retried');
    await releaseContactExport(db, {
      exportId: job.id,
      workerId: options.workerId,
      retryAt: new Date(services.now().getTime() + RETRY_AFTER_ERROR_MS),
    }).catch(() => {});
    return 'stopped';
  }
}
