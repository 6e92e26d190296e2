import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { defineVerb } from '@/lib/core/verb';
import { conflict, notFound } from '@/lib/shared/errors';
import { exportFilePaths } from './internal/export-file';
import { getContactExportInAccount } from './internal/queries';
import { contactExportPathSchema, exportTtlSeconds } from './schemas';

export type ContactExportFile = { stream: Readable; fileName: string; byteSize: number };

const expired = (ttlSeconds: number) =>
  `the export expired: its file is kept for ${ttlSeconds % 3600 === 0 ? `${ttlSeconds / 3600} hours` : `${ttlSeconds} seconds`} after the export finished; start a new export`;

/**
 * The file of a finished export, as a stream from disk (never read whole). The file is opened
 * here, so one deleted by the expiry job between the check and the read is still a clean 404.
 */
export const streamContactExportFile = defineVerb({
  scope: 'contacts:read',
  input: contactExportPathSchema,
  async run({ db, principal, config, now }, input): Promise<ContactExportFile> {
    const row = await getContactExportInAccount(db, principal.targetAccountId, input.export_id);
    // Expired at its time, not only once the purge job (every 10 minutes) has marked it.
    if (row.status === 'expired' || (row.expiresAt && row.expiresAt <= now()))
      throw notFound(expired(exportTtlSeconds(config)));
    if (row.status === 'failed')
      throw notFound(`the export failed, so it has no file: ${row.error ?? 'unknown error'}`);
    if (row.status !== 'done') throw conflict(`the export is ${row.status}: its file is ready when its status is done`);
    const files = exportFilePaths(config, row.id);
    const handle = await open(files.final, 'r').catch(() => null);
    if (!handle) throw notFound(expired(exportTtlSeconds(config)));
    const { size } = await handle.stat();
    return {
      stream: createReadStream('', { fd: handle, highWaterMark: 64 * 1024 }),
      fileName: `contacts-${row.createdAt.toISOString().slice(0, 10)}-${row.id.slice(0, 8)}.csv`,
      byteSize: size,
    };
  },
});
