import { pageQuerySchema } from '@/lib/core/shared/pagination';
import { segmentFilterSchema } from '@/lib/core/segments/schemas';
import { z } from '@/lib/core/zod';

/**
 * Inputs and outputs of the contact export API (marketing-api.md Part 2, Exports:
 * `POST /contacts/export`, `GET /contacts/export/{export_id}` and its `/file`).
 */

export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** The contract: export files are kept for 24 hours after the export finished; CONTACT_EXPORT_TTL_SECONDS shortens it. */
export const exportTtlSeconds = (config: { contactExportTtlSeconds?: number }) =>
  config.contactExportTtlSeconds ?? 24 * 60 * 60;

/** Exports of one account queued or running at once; another is 409 until one of them ends. */
export const MAX_ACTIVE_EXPORTS = 2;
/** An expired export's row still answers "expired" for a week, then it is gone (404). */
export const EXPIRED_ROW_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/** The contact columns every export starts with; one column per attribute definition follows. */
export const EXPORT_CONTACT_COLUMNS = ['email', 'first_name', 'last_name', 'unsubscribed', 'created_at'] as const;

const idField = (what: string) =>
  z
    .string({ error: `must be a ${what} id` })
    .max(100, `must be a ${what} id`)
    .optional();

/**
 * The body: at most one of list_id, segment_id, filter; none exports every contact. `filter` is a
 * segment's filter, the same schema as a segment's (lib/core/segments/schemas.ts).
 */
export const createContactExportSchema = z
  .object({
    list_id: idField('list').openapi({ description: "Only the list's members (any subscription status)." }),
    segment_id: idField('segment').openapi({
      description: "Only the segment's contacts, as it matches when the export runs.",
    }),
    filter: segmentFilterSchema
      .optional()
      .openapi({ description: 'A segment filter (as in POST /segments), without saving a segment.' }),
  })
  .strict()
  .refine((body) => [body.list_id, body.segment_id, body.filter].filter((value) => value !== undefined).length <= 1, {
    error: 'give at most one of list_id, segment_id and filter',
  })
  .openapi('CreateContactExportRequest');

export type CreateContactExportInput = z.output<typeof createContactExportSchema>;

export const contactExportPathSchema = z.object({ export_id: z.string() });

export const listContactExportsQuerySchema = pageQuerySchema;

export const contactExportSchema = z
  .object({
    object: z.literal('contact_export'),
    id: z.string().uuid(),
    status: z.enum(EXPORT_STATUSES).openapi({
      description:
        'queued, running (restarted from the first row after a worker restart), then done or failed; expired once its file is deleted, 24 hours after it finished.',
    }),
    list_id: z.string().nullable(),
    segment_id: z.string().nullable(),
    filter: z.record(z.string(), z.unknown()).nullable(),
    exported: z.number().int().openapi({ description: 'Contacts written to the file so far.' }),
    total: z.number().int().nullable().openapi({
      description: 'Mailstead extension: how many contacts matched when the run started (null until then).',
    }),
    byte_size: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Mailstead extension: the size of the file when done.' }),
    file_url: z.string().nullable().openapi({
      description:
        'When done: the absolute URL (on PUBLIC_URL) of GET .../contacts/export/{export_id}/file, which needs the same credentials (contacts:read). Null otherwise.',
    }),
    error: z.string().nullable().openapi({ description: 'Why a failed export stopped.' }),
    created_at: z.string().datetime(),
    started_at: z.string().datetime().nullable(),
    completed_at: z.string().datetime().nullable(),
    expires_at: z.string().datetime().nullable().openapi({
      description: 'When the file is deleted (24 hours after the export finished); null before.',
    }),
  })
  .openapi('ContactExport');

export type ContactExportObject = z.output<typeof contactExportSchema>;
