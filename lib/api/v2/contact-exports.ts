import { Readable } from 'node:stream';
import { createContactExport } from '@/lib/core/contact-exports/create-contact-export';
import { getContactExport } from '@/lib/core/contact-exports/get-contact-export';
import { listContactExports } from '@/lib/core/contact-exports/list-contact-exports';
import {
  contactExportSchema,
  createContactExportSchema,
  listContactExportsQuerySchema,
} from '@/lib/core/contact-exports/schemas';
import type { ContactExportFile } from '@/lib/core/contact-exports/stream-contact-export-file';
import { streamContactExportFile } from '@/lib/core/contact-exports/stream-contact-export-file';
import type { Page } from '@/lib/core/shared/pagination';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';
import { listEnvelopeSchema, presentPage } from '../pagination';

/**
 * Contact exports (marketing-api.md Part 2, Exports). Registered before contacts.ts, so that
 * `/contacts/export` is never read as the contact `{id_or_email}` = `export`.
 */
const collection = '/v2/accounts/{account_id}/contacts/export' as const;
const item = `${collection}/{export_id}` as const;
const tags = ['Contacts'];
const params = ({ params }: { params: Record<string, string> }) => ({ export_id: params.export_id });

const COLUMNS =
  'Columns: email, first_name, last_name, unsubscribed (true/false), created_at (RFC 3339), then one per attribute definition of the account, by key in alphabetical order (text as is, numbers and booleans as JSON, nested values as JSON). UTF-8 without a byte order mark, RFC 4180 quoting, LF line ends. A text cell that starts with = + - @, a tab or a carriage return is prefixed with an apostrophe, so that a spreadsheet never runs it as a formula (CSV injection).';

export const contactExportEndpoints = [
  {
    method: 'post',
    path: collection,
    verb: createContactExport,
    status: 202,
    summary: 'Export contacts as a CSV file',
    description: `Queues an export of every contact, of a list's members (list_id, any subscription status), of a segment (segment_id) or of a segment filter (filter); at most one of them. An unknown or deleted list or segment is 404. The worker role writes the file page by page; GET .../contacts/export/{export_id} shows the progress and, when done, file_url. The file is kept for 24 hours after the export finished (CONTACT_EXPORT_TTL_SECONDS). An account has at most 2 exports queued or running at once: a third is 409 until one of them ends. ${COLUMNS}`,
    tags,
    body: createContactExportSchema,
    response: contactExportSchema,
    input: ({ body }) => body,
    idempotency: 'standard',
  },
  {
    method: 'get',
    path: collection,
    verb: listContactExports,
    status: 200,
    summary: 'List contact exports',
    description: "Mailstead extension: the account's exports, newest first; expired ones stay listed for a week.",
    tags,
    query: listContactExportsQuerySchema,
    response: listEnvelopeSchema(contactExportSchema, 'PaginatedContactExportsResponse'),
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
    isExtension: true,
  },
  {
    method: 'get',
    path: item,
    verb: getContactExport,
    status: 200,
    summary: 'Get the progress of a contact export',
    tags,
    response: contactExportSchema,
    input: params,
  },
  {
    method: 'get',
    path: `${item}/file` as const,
    verb: streamContactExportFile,
    status: 200,
    summary: "Download a contact export's CSV file",
    description: `Streams the file (text/csv, as an attachment). 409 while the export is queued or running; 404 once it failed or expired (the message says which), and for another account's export. ${COLUMNS}`,
    tags,
    response: z.string(),
    responseMediaType: 'text/csv',
    input: params,
    respond: (c, file: ContactExportFile) =>
      c.body(Readable.toWeb(file.stream) as ReadableStream, 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${file.fileName}"`,
        'content-length': String(file.byteSize),
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
      }),
  },
] satisfies Endpoint[];
