import { z } from '@/lib/core/zod';

/**
 * Inputs and outputs of the contact import API (marketing-api.md, Contacts: `POST /contacts/import`
 * and `GET /contacts/import/{import_id}`). The upload itself is a stream, not JSON.
 */

export const IMPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const IMPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** The contract's limit on one upload. */
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024;
/** Per-row errors kept on the job; `counts.errors` counts every one. */
export const MAX_KEPT_ERRORS = 1000;

/** Content-Types that name each format when the `format` parameter does not. */
export const MEDIA_TYPES: Record<ImportFormat, readonly string[]> = {
  csv: ['text/csv', 'application/csv'],
  jsonl: ['application/x-ndjson', 'application/jsonl', 'application/jsonlines', 'application/x-jsonlines'],
};

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

export const createContactImportQuerySchema = z.object({
  list_id: z.preprocess(emptyToUndefined, z.string().max(100, 'must be a list id').optional()).openapi({
    description:
      'Add every imported contact to this list of the account (status `confirmed`; an existing membership keeps its status). An unknown or deleted list is 404.',
  }),
  format: z.preprocess(emptyToUndefined, z.enum(IMPORT_FORMATS, { error: 'must be csv or jsonl' }).optional()).openapi({
    description:
      'Mailstead extension: `csv` or `jsonl`, whatever the Content-Type says. Without it the Content-Type decides.',
  }),
});

const isByteStream = (value: unknown): value is AsyncIterable<Uint8Array> =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';

/** The verb's input: the query, plus the upload as the entry point hands it on (unread). */
export const createContactImportSchema = createContactImportQuerySchema.extend({
  content_type: z.string().nullish(),
  declared_bytes: z.number().nullish(),
  body: z.custom<AsyncIterable<Uint8Array>>(isByteStream, { error: 'the upload is missing' }),
});

export type CreateContactImportInput = z.output<typeof createContactImportSchema>;

export const contactImportPathSchema = z.object({ import_id: z.string() });

export const contactImportErrorSchema = z.object({
  row: z.number().int().openapi({
    description: 'CSV: the record number, the header being row 1 (the spreadsheet row). JSON lines: the line number.',
  }),
  email: z
    .string()
    .nullable()
    .openapi({ description: 'The address as the row gave it (up to 320 characters), or null.' }),
  reason: z.string(),
});

export type ContactImportError = z.output<typeof contactImportErrorSchema>;

export const contactImportSchema = z
  .object({
    object: z.literal('contact_import'),
    id: z.string().uuid(),
    status: z.enum(IMPORT_STATUSES).openapi({
      description: 'queued, running (resumed after a restart), then completed or failed (see failure_reason).',
    }),
    format: z.enum(IMPORT_FORMATS),
    list_id: z.string().uuid().nullable(),
    counts: z
      .object({
        processed: z.number().int().openapi({ description: 'Data rows read so far (valid and invalid).' }),
        created: z.number().int(),
        updated: z.number().int().openapi({
          description: 'Rows that matched an existing contact (or an earlier row of the file with the same address).',
        }),
        errors: z.number().int().openapi({ description: 'Rows refused; the first 1,000 are listed in `errors`.' }),
      })
      .openapi('ContactImportCounts'),
    size_bytes: z.number().int().openapi({ description: 'Mailstead extension: the size of the upload.' }),
    processed_bytes: z.number().int().openapi({
      description:
        'Mailstead extension: how much of the upload the worker had read when the last batch committed. The parser reads ahead, so this runs ahead of the committed rows (by up to a few MB); use counts.processed for exact progress.',
    }),
    errors: z.array(contactImportErrorSchema),
    failure_reason: z.string().nullable().openapi({
      description:
        'Why a failed import stopped (a malformed file, an unknown column...). Rows committed before stay imported.',
    }),
    created_at: z.string().datetime(),
    started_at: z.string().datetime().nullable(),
    finished_at: z.string().datetime().nullable(),
  })
  .openapi('ContactImport');

export type ContactImportObject = z.output<typeof contactImportSchema>;
