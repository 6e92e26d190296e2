import { PGlite, types, type PGliteOptions } from '@electric-sql/pglite';

/**
 * Buffer pool of the embedded database. PGlite's default (128 MB) is touched at start-up and stays
 * in the process for good; the data files sit in the OS page cache anyway, so a miss costs a read
 * from memory. Measured with the import bench: 120 MB less RSS, no more CPU.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * What a random page read costs against a sequential one, for the planner (PostgreSQL's default: 4,
 * for spinning disks). PGlite's files are read through the OS page cache, so 1.1, as on SSDs.
 * Single-user PostgreSQL has no autovacuum, so planner statistics are often those of an emptier
 * table; at 4 the delivery claim then took a bitmap scan of every due message and a sort, not the
 * due index in order: 9.4 ms per claim of 200 from a queue of 20,000, against 5.7 at 1.1.
 */
export const PGLITE_RANDOM_PAGE_COST = '1.1';

/**
 * bytea as hex through Buffer. PGlite's own codec goes byte by byte (one string per byte to write,
 * one parseInt per byte to read): a 256 KB import chunk left megabytes of garbage and took tens of ms.
 */
const byteaCodec = {
  serializers: {
    [types.BYTEA]: (value: Uint8Array) =>
      '\\x' + Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex'),
  },
  parsers: { [types.BYTEA]: (text: string) => Buffer.from(text.slice(2), 'hex') },
};

/** How Mailstead opens PGlite, on disk (`dataDir`) or in memory (tests). */
export function pgliteOptions(dataDir?: string): PGliteOptions {
  return {
    ...(dataDir ? { dataDir } : {}),
    ...byteaCodec,
    startParams: [
      ...PGlite.defaultStartParams,
      '-c',
      `shared_buffers=${PGLITE_SHARED_BUFFERS}`,
      '-c',
      `random_page_cost=${PGLITE_RANDOM_PAGE_COST}`,
    ],
  };
}
