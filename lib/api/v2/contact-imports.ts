import { createContactImport } from '@/lib/core/contact-imports/create-contact-import';
import { getContactImport } from '@/lib/core/contact-imports/get-contact-import';
import {
  contactImportSchema,
  createContactImportQuerySchema,
  MAX_IMPORT_BYTES,
  MEDIA_TYPES,
} from '@/lib/core/contact-imports/schemas';
import type { Endpoint } from '../endpoint';

const collection = '/v2/accounts/{account_id}/contacts/import' as const;
const tags = ['Contacts'];

const uploadDescription = [
  'The file itself as the request body (not multipart), up to 100 MB (413 beyond), in UTF-8.',
  'CSV (text/csv): a header row naming the columns: email (required), first_name, last_name, and attribute keys of the account; names are matched case-insensitively and any other column fails the import.',
  'Cells are converted to their attribute type: "42" to 42 for number, true/false (any case) for boolean, dates as YYYY-MM-DD and datetimes as RFC 3339.',
  'JSON lines (application/x-ndjson or application/jsonl): one object per line with email, first_name, last_name and attributes (canonical JSON values).',
  'An empty cell, a null or a missing field leaves the stored value as it is: an import creates contacts and updates the values it gives, never clears one and never changes a subscription.',
  'The answer (202) comes as soon as the file is stored; the worker role then validates and upserts the rows in batches, and GET .../contacts/import/{import_id} shows the progress.',
  'A row that breaks a rule (invalid address, unknown attribute, non-canonical value) is counted and listed in errors with its row number; a file that cannot be read (invalid UTF-8, broken CSV quoting, no email column) fails the import with failure_reason.',
  'With list_id every imported contact becomes a confirmed member of that list, except that an existing membership keeps its status.',
  'Idempotency-Key: a retry with the same key, query, Content-Type and Content-Length replays the first answer (the body is streamed, so it is not part of the comparison).',
].join(' ');

export const contactImportEndpoints = [
  {
    method: 'post',
    path: collection,
    verb: createContactImport,
    status: 202,
    summary: 'Import contacts from a CSV or JSON lines file',
    tags,
    query: createContactImportQuerySchema,
    response: contactImportSchema,
    upload: {
      mediaTypes: [...MEDIA_TYPES.csv, ...MEDIA_TYPES.jsonl],
      description: uploadDescription,
      maxBytes: MAX_IMPORT_BYTES,
    },
    input: ({ query, upload }) => ({
      ...query,
      content_type: upload?.contentType,
      declared_bytes: upload?.declaredBytes,
      body: upload?.stream,
    }),
    idempotency: 'standard',
  },
  {
    method: 'get',
    path: `${collection}/{import_id}` as const,
    verb: getContactImport,
    status: 200,
    summary: 'Get the progress of a contact import',
    tags,
    response: contactImportSchema,
  },
] satisfies Endpoint[];
