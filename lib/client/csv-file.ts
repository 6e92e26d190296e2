import { parse } from 'csv-parse/browser/esm/sync';

/**
 * A CSV file picked in the browser: read only as far as the preview needs, counted without being
 * parsed, and re-headed for the column mapping, so a 100 MB file is never held whole unless columns
 * are dropped.
 */

const PREVIEW_BYTES = 256 * 1024;
const NEWLINE = 10;
const QUOTE = 34;

export type CsvPreview = { header: string[]; rows: string[][]; headerBytes: number };

/** The header and the first `count` rows, parsed by csv-parse from the start of the file. */
export async function readCsvPreview(file: Blob, count = 5): Promise<CsvPreview> {
  const bytes = new Uint8Array(await file.slice(0, PREVIEW_BYTES).arrayBuffer());
  const headerBytes = endOfFirstRecord(bytes);
  // Cut at the last complete line, so a row split by the slice is not parsed as a broken one.
  const lastNewline = bytes.lastIndexOf(NEWLINE);
  const isWhole = file.size <= PREVIEW_BYTES;
  const text = new TextDecoder().decode(isWhole || lastNewline < 0 ? bytes : bytes.subarray(0, lastNewline + 1));
  const records = parse(text, {
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    to_line: count + 1 + 20,
  }) as string[][];
  const [header = [], ...rows] = records;
  return { header: header.map((name) => name.trim()), rows: rows.slice(0, count), headerBytes };
}

/** Byte offset just after the header line (quotes respected). */
function endOfFirstRecord(bytes: Uint8Array): number {
  let isQuoted = false;
  for (let index = 0; index < bytes.length; index++) {
    if (bytes[index] === QUOTE) isQuoted = !isQuoted;
    else if (bytes[index] === NEWLINE && !isQuoted) return index + 1;
  }
  return bytes.length;
}

/**
 * Data rows in the file: line ends outside quotes, minus the header, plus a last line without one;
 * blank lines are not rows. Read in chunks, so memory stays flat.
 */
export async function countCsvRows(file: Blob): Promise<number> {
  const reader = file.stream().getReader();
  let records = 0;
  let isQuoted = false;
  let isLineEmpty = true;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (let index = 0; index < value.length; index++) {
      const byte = value[index];
      if (byte === QUOTE) isQuoted = !isQuoted;
      if (byte === NEWLINE && !isQuoted) {
        if (!isLineEmpty) records += 1;
        isLineEmpty = true;
      } else if (byte !== 13) isLineEmpty = false;
    }
  }
  if (!isLineEmpty) records += 1;
  return Math.max(0, records - 1);
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * The file as the API should read it: each column named by its mapping. When every column is kept
 * only the header line is replaced (the rest is the file itself); dropping columns rewrites it.
 */
export async function remapCsv(file: Blob, preview: CsvPreview, mapping: (string | null)[]): Promise<Blob> {
  const kept = mapping.flatMap((target, index) => (target ? [index] : []));
  const header = kept.map((index) => csvCell(mapping[index]!)).join(',');
  if (kept.length === mapping.length)
    return new Blob([`${header}\n`, file.slice(preview.headerBytes)], { type: 'text/csv' });
  const records = parse(await file.text(), {
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    from_line: 2,
  }) as string[][];
  const lines = records.map((record) => kept.map((index) => csvCell(record[index] ?? '')).join(','));
  return new Blob([`${header}\n`, lines.join('\n'), '\n'], { type: 'text/csv' });
}

/** Rows as CSV text (the import's error rows, to download). */
export function toCsv(header: string[], rows: (string | number | null)[][]): string {
  return (
    [header, ...rows].map((row) => row.map((cell) => csvCell(cell === null ? '' : String(cell))).join(',')).join('\n') +
    '\n'
  );
}

/**
 * The records of a CSV file by row number as the import reports them (the header is row 1), with
 * the header; used to put a refused row's own cells beside its reason.
 */
export async function readCsvRecords(
  file: Blob,
): Promise<{ header: string[]; byRow: (row: number) => string[] | undefined }> {
  const records = parse(await file.text(), {
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
  }) as string[][];
  return { header: records[0] ?? [], byRow: (row) => records[row - 1] };
}
