import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createContactImport } from '@/lib/core/contact-imports/create-contact-import';
import { getContactImport } from '@/lib/core/contact-imports/get-contact-import';
import { contactImportChunks, contactImports } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { as, keyPrincipal, newAccount } from '../../../support/memory-services';
import {
  accountId,
  bytesOf,
  get,
  listId,
  principal,
  rejection,
  runAll,
  services,
  upload,
  useImportServices,
} from './contact-import-fixture';

/**
 * Uploading an import on an in-memory PGlite: the queued contact_import and its stored chunks, the
 * Content-Type and size checks, the list, scope and tenancy checks. Running it is in
 * run-contact-import.test.ts.
 */
useImportServices();

describe('createContactImport', () => {
  it('answers a queued contact_import with the upload stored in chunks, and GET shows it', async () => {
    const job = await upload('email\na@csv.example\n');
    expect(job).toMatchObject({
      object: 'contact_import',
      status: 'queued',
      format: 'csv',
      list_id: null,
      counts: { processed: 0, created: 0, updated: 0, errors: 0 },
      errors: [],
      failure_reason: null,
      started_at: null,
      finished_at: null,
      size_bytes: 20,
    });
    expect(await get(job.id)).toEqual(job);
    const chunks = await services.db.select().from(contactImportChunks).where(eq(contactImportChunks.importId, job.id));
    expect(Buffer.concat(chunks.map((chunk) => Buffer.from(chunk.data))).toString()).toBe('email\na@csv.example\n');
    await runAll();
  });

  it.each([
    ['text/plain', /Content-Type must be one of text\/csv/],
    ['application/json', /Content-Type must be one of/],
    ['text/csv; charset=latin1', /must be UTF-8/],
  ])('Content-Type %s is 415', async (type, message) => {
    const error = await rejection(upload('email\n', {}, type));
    expect(error.kind).toBe('unsupported_media_type');
    expect(error.message).toMatch(message);
  });

  it('?format= names the format whatever the Content-Type; a declared size over 100 MB is 413; an empty body is 400', async () => {
    const job = await upload('{"email":"f@format.example"}\n', { format: 'jsonl' }, 'application/octet-stream');
    expect(job.format).toBe('jsonl');
    const tooLarge = await rejection(
      createContactImport(as(services, principal), {
        content_type: 'text/csv',
        declared_bytes: 100 * 1024 * 1024 + 1,
        body: bytesOf('email\n'),
      }),
    );
    expect(tooLarge).toMatchObject({ kind: 'too_large', message: 'the upload is larger than the limit of 100 MB' });
    expect((await rejection(upload(''))).kind).toBe('invalid_input');
    // Nothing is left of a refused upload.
    const receiving = await services.db.select().from(contactImports).where(eq(contactImports.status, 'receiving'));
    expect(receiving).toEqual([]);
    await runAll();
  });

  it('list_id must be a live list of the account (404 otherwise); scope contacts:write; GET is tenant-scoped', async () => {
    expect((await rejection(upload('email\n', { list_id: newId() }))).kind).toBe('not_found');
    expect((await rejection(upload('email\n', { list_id: 'not-a-uuid' }))).kind).toBe('not_found');
    const other = await newAccount(services, 'Other');
    const job = await upload('email\nx@tenant.example\n');
    expect((await rejection(getContactImport(as(services, other.principal), { import_id: job.id }))).kind).toBe(
      'not_found',
    );
    expect((await rejection(upload('email\n', { list_id: listId }, 'text/csv', other.principal))).kind).toBe(
      'not_found',
    );
    expect((await rejection(upload('email\n', {}, 'text/csv', keyPrincipal(accountId, ['contacts:read'])))).kind).toBe(
      'forbidden',
    );
    expect((await rejection(getContactImport(as(services, principal), { import_id: 'import' }))).kind).toBe(
      'not_found',
    );
    await runAll();
  });
});
