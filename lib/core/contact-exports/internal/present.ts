import type { contactExports } from '@/lib/db/schema';
import type { ContactExportObject, ExportStatus } from '../schemas';

export type ContactExportRow = typeof contactExports.$inferSelect;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The API path of an export's file, relative to the server's root (the dashboard's download link). */
export const contactExportFilePath = (row: Pick<ContactExportRow, 'accountId' | 'id'>) =>
  `v2/accounts/${row.accountId}/contacts/export/${row.id}/file`;

/** The `contact_export` object; `file_url` is absolute on PUBLIC_URL, and only while the file is there. */
export function presentContactExport(row: ContactExportRow, publicUrl: URL): ContactExportObject {
  const selection = row.selection;
  return {
    object: 'contact_export',
    id: row.id,
    status: row.status as ExportStatus,
    list_id: typeof selection.list_id === 'string' ? selection.list_id : null,
    segment_id: typeof selection.segment_id === 'string' ? selection.segment_id : null,
    filter: (selection.filter as Record<string, unknown> | undefined) ?? null,
    exported: row.exportedCount,
    total: row.totalEstimate,
    byte_size: row.byteSize,
    file_url: row.status === 'done' ? new URL(contactExportFilePath(row), withSlash(publicUrl)).toString() : null,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    completed_at: iso(row.completedAt),
    expires_at: iso(row.expiresAt),
  };
}

/** PUBLIC_URL may carry a path (`https://host/mail`): the file URL goes under it, not beside it. */
const withSlash = (url: URL) => (url.href.endsWith('/') ? url : new URL(`${url.href}/`));
