import { EXPORT_CONTACT_COLUMNS } from '../schemas';

/** What a page of the export reads of each contact. */
export type ExportedContact = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  unsubscribed: boolean;
  createdAt: Date;
  attributes: Record<string, unknown>;
};

/**
 * A spreadsheet runs a cell that starts with one of these as a formula (OWASP, CSV injection): such
 * a text cell gets a leading `'`, which spreadsheets show as text. Numbers stored as numbers are
 * written as they are (`-5` is a number to a spreadsheet, not a formula).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** An attribute value as one cell: text as is, numbers and booleans as JSON, nested values as JSON. */
export function attributeCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return neutraliseCell(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return neutraliseCell(JSON.stringify(value));
}

/** The header: the contact's columns, then one per attribute definition (keys in the given order). */
export function exportHeader(attributeKeys: readonly string[]): string[] {
  return [...EXPORT_CONTACT_COLUMNS, ...attributeKeys];
}

/** One contact as the cells of its row, in the header's order; CSV quoting is the stringifier's. */
export function exportRecord(contact: ExportedContact, attributeKeys: readonly string[]): string[] {
  return [
    neutraliseCell(contact.email),
    neutraliseCell(contact.firstName ?? ''),
    neutraliseCell(contact.lastName ?? ''),
    contact.unsubscribed ? 'true' : 'false',
    contact.createdAt.toISOString(),
    ...attributeKeys.map((key) => attributeCell(contact.attributes[key])),
  ];
}
