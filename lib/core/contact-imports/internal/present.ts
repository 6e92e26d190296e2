import type { contactImports } from '@/lib/db/schema';
import type { ContactImportObject, ImportFormat, ImportStatus } from '../schemas';

export type ContactImportRow = typeof contactImports.$inferSelect;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The `contact_import` object; a job still receiving its upload is never shown (queries.ts hides it). */
export function presentContactImport(row: ContactImportRow): ContactImportObject {
  return {
    object: 'contact_import',
    id: row.id,
    status: row.status as ImportStatus,
    format: row.format as ImportFormat,
    list_id: row.listId,
    counts: { processed: row.rowsDone, created: row.createdCount, updated: row.updatedCount, errors: row.errorCount },
    size_bytes: row.sizeBytes,
    processed_bytes: row.bytesDone,
    errors: row.errors,
    failure_reason: row.failureReason,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
  };
}
