import { and, eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { contactImportChunks, contactImports } from '@/lib/db/schema';
import { ImportLeaseLostError } from './write-import-batch';

export type ImportEnd = { status: 'completed' } | { status: 'failed'; reason: string };

/**
 * Ends an import: its final status and, in the same transaction, the upload's chunks deleted (the
 * job row stays, with its counts and errors). Fenced like every write of the worker.
 */
export async function finishContactImport(
  db: Db,
  job: { id: string; workerId: string },
  end: ImportEnd,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const ended = await tx
      .update(contactImports)
      .set({
        status: end.status,
        failureReason: end.status === 'failed' ? end.reason : null,
        finishedAt: now,
        leaseUntil: null,
        lockedBy: null,
        updatedAt: now,
      })
      .where(and(eq(contactImports.id, job.id), eq(contactImports.lockedBy, job.workerId)))
      .returning({ id: contactImports.id });
    if (ended.length === 0) throw new ImportLeaseLostError('the import was taken over by another worker');
    await tx.delete(contactImportChunks).where(eq(contactImportChunks.importId, job.id));
  });
}
