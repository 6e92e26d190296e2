import { Readable, pipeline } from 'node:stream';
import { parse } from 'csv-parse';
import { and, asc, eq, gte } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { contactImportChunks } from '@/lib/db/schema';

/** A problem with the file as a whole (encoding, CSV syntax, header): the job fails with this message. */
export class ImportFileError extends Error {}

/**
 * A record longer than this is refused: for CSV it fails the file (nearly always a quote left open,
 * which would otherwise swallow the rest of it); a JSON line that long is a row error.
 */
export const MAX_RECORD_CHARS = 1024 * 1024;

/** A record as read from the file: its number (see schemas.ts, `row`) and its fields or its text. */
export type CsvRecord = { row: number; cells: string[] };
export type JsonLine = { row: number; text: string | null };

/** The upload's chunks in order, one at a time, so that a 100 MB file never sits in memory. */
export async function* readImportChunks(db: Db, importId: string): AsyncGenerator<Uint8Array> {
  for (let seq = 0; ; seq++) {
    const [chunk] = await db
      .select({ data: contactImportChunks.data })
      .from(contactImportChunks)
      .where(and(eq(contactImportChunks.importId, importId), gte(contactImportChunks.seq, seq)))
      .orderBy(asc(contactImportChunks.seq))
      .limit(1);
    if (!chunk) return;
    yield chunk.data;
  }
}

/** UTF-8 text from bytes split anywhere; a byte-order mark is dropped, invalid UTF-8 fails the file. */
export async function* decodeUtf8(
  chunks: AsyncIterable<Uint8Array>,
  progress: { bytes: number },
): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const chunk of chunks) {
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw new ImportFileError(
        `the file is not valid UTF-8 text (between bytes ${progress.bytes} and ${progress.bytes + chunk.byteLength}); save it as UTF-8 and upload it again`,
      );
    }
    progress.bytes += chunk.byteLength;
    if (text) yield text;
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    throw new ImportFileError(
      'the file is not valid UTF-8 text (it ends inside a character); save it as UTF-8 and upload it again',
    );
  }
}

/**
 * CSV records through csv-parse, the header included (row 1). Blank lines are records of one empty
 * field, so that record numbers stay line numbers for ordinary files; the caller skips them.
 */
export async function* readCsvRecords(text: AsyncIterable<string>): AsyncGenerator<CsvRecord> {
  const parser = parse({ max_record_size: MAX_RECORD_CHARS, relax_column_count: true, skip_empty_lines: false });
  pipeline(Readable.from(text), parser, () => {});
  let row = 0;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) yield { row: ++row, cells };
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    const code = (error as { code?: string }).code;
    // The parser's own count: records it parsed may not have reached this loop before the error.
    if (code === 'CSV_MAX_RECORD_SIZE')
      throw new ImportFileError(
        `the file is not valid CSV: row ${parser.info.records + 1} is longer than ${MAX_RECORD_CHARS / (1024 * 1024)} MB (is a quote left open?)`,
      );
    if ((typeof code === 'string' && code.startsWith('CSV_')) || code === 'INVALID_OPENING_QUOTE')
      throw new ImportFileError(`the file is not valid CSV: ${(error as Error).message}`);
    throw error;
  }
}

/** JSON lines: one text per line (the line number is the row); a line over the limit comes as null. */
export async function* readJsonLines(text: AsyncIterable<string>): AsyncGenerator<JsonLine> {
  let pending = '';
  let isTooLong = false;
  let row = 0;
  for await (const piece of text) {
    let start = 0;
    for (let newline = piece.indexOf('\n'); newline >= 0; newline = piece.indexOf('\n', start)) {
      const line = isTooLong ? null : pending + piece.slice(start, newline);
      pending = '';
      isTooLong = false;
      start = newline + 1;
      yield { row: ++row, text: line !== null && line.length > MAX_RECORD_CHARS ? null : line };
    }
    if (!isTooLong) {
      pending += piece.slice(start);
      // Past the limit the rest of the line is dropped as it comes, keeping memory bounded.
      if (pending.length > MAX_RECORD_CHARS) {
        pending = '';
        isTooLong = true;
      }
    }
  }
  if (isTooLong) yield { row: ++row, text: null };
  else if (pending !== '') yield { row: ++row, text: pending };
}
