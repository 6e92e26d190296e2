import type { AttributeType } from '@/lib/core/contacts/attribute-values';
import { ImportFileError, type CsvRecord, type JsonLine } from './read-import-file';

/**
 * Records of either format as one shape, before validation: what each row says about its contact.
 * Empty cells, nulls and missing fields are absent: an import adds and updates, it never clears.
 */
export type CandidateRow = {
  row: number;
  email: unknown;
  firstName: unknown;
  lastName: unknown;
  attributes: Record<string, unknown>;
};
export type RowError = { row: number; email: string | null; reason: string };
export type ReadRow =
  { kind: 'candidate'; candidate: CandidateRow } | { kind: 'error'; error: RowError } | { kind: 'blank' };

export type AttributeTypes = Map<string, AttributeType>;

/** Which CSV column holds what, worked out once from the header. */
export type CsvPlan = {
  email: number;
  firstName: number;
  lastName: number;
  attributes: { index: number; key: string; type: AttributeType }[];
  width: number;
};

const FIELDS = ['email', 'first_name', 'last_name'];
const shown = (name: string) => JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);

/**
 * The header row: names are trimmed and compared in lower case; `email` is required; every other
 * column must be first_name, last_name or an attribute key of the account. Columns without a name
 * are ignored. Anything else fails the file before a row is written.
 */
export function planCsvColumns(header: string[], types: AttributeTypes): CsvPlan {
  const names = header.map((name) => name.trim().toLowerCase());
  const seen = new Set<string>();
  const unknown: string[] = [];
  const plan: CsvPlan = { email: -1, firstName: -1, lastName: -1, attributes: [], width: header.length };
  names.forEach((name, index) => {
    if (name === '') return;
    if (seen.has(name)) throw new ImportFileError(`the column ${shown(name)} appears twice in the header`);
    seen.add(name);
    if (name === 'email') plan.email = index;
    else if (name === 'first_name') plan.firstName = index;
    else if (name === 'last_name') plan.lastName = index;
    else if (types.has(name)) plan.attributes.push({ index, key: name, type: types.get(name)! });
    else unknown.push(name);
  });
  if (plan.email < 0)
    throw new ImportFileError(
      `the header has no email column (its columns: ${names.slice(0, 20).map(shown).join(', ') || 'none'})`,
    );
  if (unknown.length > 0) {
    const attributes = [...types.keys()];
    throw new ImportFileError(
      `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.slice(0, 10).map(shown).join(', ')}: a column must be ${FIELDS.join(', ')} or an attribute of this account (${attributes.length ? attributes.slice(0, 30).join(', ') : 'none defined'})`,
    );
  }
  return plan;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A CSV cell as the JSON value its attribute type expects: "42" -> 42, "true"/"TRUE" -> true, dates
 * as written. A cell that does not convert is passed on as text, so the attribute check names the
 * expected form.
 */
export function convertCsvCell(type: AttributeType, cell: string): unknown {
  if (type === 'string') return cell;
  const value = cell.trim();
  if (type === 'number') return NUMBER.test(value) ? Number(value) : value;
  if (type === 'boolean') {
    const lower = value.toLowerCase();
    return lower === 'true' ? true : lower === 'false' ? false : value;
  }
  return value;
}

const cellAt = (cells: string[], index: number) =>
  index >= 0 && index < cells.length && cells[index].trim() !== '' ? cells[index] : undefined;

export function csvRecordToRow(record: CsvRecord, plan: CsvPlan): ReadRow {
  const { cells, row } = record;
  if (cells.every((cell) => cell.trim() === '')) return { kind: 'blank' };
  const email = cellAt(cells, plan.email);
  if (cells.length > plan.width) {
    return {
      kind: 'error',
      error: {
        row,
        email: typeof email === 'string' ? email.slice(0, 320) : null,
        reason: `has ${cells.length} fields, the header has ${plan.width}`,
      },
    };
  }
  const attributes: Record<string, unknown> = {};
  for (const column of plan.attributes) {
    const cell = cellAt(cells, column.index);
    if (cell !== undefined) attributes[column.key] = convertCsvCell(column.type, cell);
  }
  return {
    kind: 'candidate',
    candidate: {
      row,
      email,
      firstName: cellAt(cells, plan.firstName),
      lastName: cellAt(cells, plan.lastName),
      attributes,
    },
  };
}

const JSON_FIELDS = new Set(['email', 'first_name', 'last_name', 'attributes']);

/** A JSON line: an object with email, first_name, last_name and attributes (nothing else). */
export function jsonLineToRow(line: JsonLine): ReadRow {
  const { row, text } = line;
  if (text === null) return { kind: 'error', error: { row, email: null, reason: 'the line is longer than 1 MB' } };
  if (text.trim() === '') return { kind: 'blank' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      kind: 'error',
      error: { row, email: null, reason: `not valid JSON (${(error as Error).message.slice(0, 100)})` },
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { kind: 'error', error: { row, email: null, reason: 'expected a JSON object' } };
  const object = value as Record<string, unknown>;
  const email = typeof object.email === 'string' ? object.email.slice(0, 320) : null;
  const unknown = Object.keys(object).filter((key) => !JSON_FIELDS.has(key));
  if (unknown.length > 0)
    return {
      kind: 'error',
      error: {
        row,
        email,
        reason: `unknown field ${shown(unknown[0])}: a line holds email, first_name, last_name and attributes`,
      },
    };
  const attributes = object.attributes ?? {};
  if (typeof attributes !== 'object' || Array.isArray(attributes))
    return { kind: 'error', error: { row, email, reason: 'attributes: must be an object of attribute values' } };
  return {
    kind: 'candidate',
    candidate: {
      row,
      email: object.email,
      firstName: object.first_name,
      lastName: object.last_name,
      attributes: attributes as Record<string, unknown>,
    },
  };
}
