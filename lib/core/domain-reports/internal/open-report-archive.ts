import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate';

/** RFC 7489 reports arrive as gzip or zip; these caps keep a hostile archive from costing more than a real one. */
export const REPORT_LIMITS = {
  compressedBytes: 10 * 1024 * 1024,
  expandedBytes: 50 * 1024 * 1024,
  // Real aggregate XML compresses 10-50 times; a bomb compresses thousands of times.
  ratio: 200,
  // Below this a ratio says nothing (a small report of repeated rows compresses well).
  ratioFloorBytes: 2 * 1024 * 1024,
} as const;

export type OpenedReport = { ok: true; text: string } | { ok: false; reason: string };

const gunzipAsync = promisify(gunzip);

/** The most an archive of this size may expand to. */
function expansionCap(compressedBytes: number): number {
  return Math.min(
    REPORT_LIMITS.expandedBytes,
    Math.max(REPORT_LIMITS.ratioFloorBytes, compressedBytes * REPORT_LIMITS.ratio),
  );
}

/**
 * The report's text from an attachment: gzip (by its magic bytes), zip (the first .xml or .json
 * member), or plain XML/JSON. Never throws: a corrupt or oversized archive is a reason.
 */
export async function openReportArchive(bytes: Buffer): Promise<OpenedReport> {
  if (bytes.length > REPORT_LIMITS.compressedBytes)
    return { ok: false, reason: `the report is larger than ${REPORT_LIMITS.compressedBytes / 1024 / 1024} MB` };
  if (bytes.length === 0) return { ok: false, reason: 'the report is empty' };
  const cap = expansionCap(bytes.length);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      return decoded(await gunzipAsync(bytes, { maxOutputLength: cap }));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ERR_BUFFER_TOO_LARGE') return expandsTooMuch(cap);
      return { ok: false, reason: 'the gzip archive is corrupt' };
    }
  }
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return openZip(bytes, cap);
  return decoded(bytes);
}

const expandsTooMuch = (cap: number): OpenedReport => ({
  ok: false,
  reason: `the archive expands to more than ${Math.round(cap / 1024 / 1024)} MB`,
});

function decoded(bytes: Buffer | Uint8Array): OpenedReport {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return { ok: true, text: text.replace(/^\uFEFF/, '') };
}

const ZIP_SLICE_BYTES = 4096;

/** A zip's first report member, its real expanded size counted as it inflates (declared sizes can lie). */
function openZip(bytes: Buffer, cap: number): OpenedReport {
  const chunks: Uint8Array[] = [];
  // Written by fflate's callbacks, which run inside push().
  const state = { size: 0, failure: null as string | null, isStarted: false, isDone: false };
  const unzip = new Unzip((file) => {
    if (state.isStarted || !/\.(xml|json)$/i.test(file.name)) return;
    state.isStarted = true;
    if ((file.originalSize ?? 0) > cap) {
      state.failure = `the archive declares more than ${Math.round(cap / 1024 / 1024)} MB`;
      return;
    }
    file.ondata = (error, chunk, isFinal) => {
      if (state.failure) return;
      if (error) {
        state.failure = 'the zip archive is corrupt';
        return;
      }
      state.size += chunk.length;
      if (state.size > cap) {
        state.failure = `the archive expands to more than ${Math.round(cap / 1024 / 1024)} MB`;
        file.terminate();
        return;
      }
      chunks.push(chunk);
      if (isFinal) state.isDone = true;
    };
    try {
      file.start();
    } catch {
      state.failure = `the zip member uses a compression method other than deflate (${file.compression})`;
    }
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  try {
    // In slices: fflate inflates each push at once, so one push of the whole archive would expand a
    // bomb fully before ondata could stop it. 4 KiB in is at most ~4 MB out past the cap.
    for (let at = 0; at < bytes.length && !state.failure; at += ZIP_SLICE_BYTES) {
      const end = Math.min(at + ZIP_SLICE_BYTES, bytes.length);
      unzip.push(bytes.subarray(at, end), end === bytes.length);
    }
  } catch {
    state.failure ??= 'the zip archive is corrupt';
  }
  if (state.failure) return { ok: false, reason: state.failure };
  if (!state.isStarted) return { ok: false, reason: 'the zip archive holds no .xml or .json file' };
  if (!state.isDone) return { ok: false, reason: 'the zip archive is truncated' };
  return decoded(Buffer.concat(chunks));
}
