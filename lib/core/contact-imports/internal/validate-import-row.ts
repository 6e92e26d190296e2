import { checkAttributeValues, type AttributeType } from '@/lib/core/contacts/attribute-values';
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH } from '@/lib/core/contacts/schemas';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import type { CandidateRow, RowError } from './import-rows';

/** A row ready to upsert: the address normalised, names trimmed, attributes canonical, nulls dropped. */
export type ValidRow = {
  row: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  attributes: Record<string, unknown>;
};

// PostgreSQL cannot store NUL in text, and UTF-8 cannot encode a lone surrogate (JSON's \ud800).
const UNSTORABLE = /[\u0000\p{Surrogate}]/u;
const problemOf = (text: string) =>
  UNSTORABLE.test(text)
    ? text.includes('\u0000')
      ? 'contains a NUL character'
      : 'contains an unpaired surrogate'
    : null;

function checkName(field: string, value: unknown): { value: string | null } | { reason: string } {
  if (value === undefined || value === null) return { value: null };
  if (typeof value !== 'string') return { reason: `${field}: must be a string` };
  const trimmed = value.trim();
  if (trimmed.length > MAX_NAME_LENGTH) return { reason: `${field}: must be at most ${MAX_NAME_LENGTH} characters` };
  const problem = problemOf(trimmed);
  if (problem) return { reason: `${field}: ${problem}` };
  return { value: trimmed === '' ? null : trimmed };
}

/**
 * The same rules as a contact write (R4, the contacts API): a valid address, names of at most 255
 * characters, attribute values in the canonical form of their definition. The reason names the field.
 */
export function validateImportRow(
  candidate: CandidateRow,
  definitions: { key: string; type: AttributeType }[],
): { row: ValidRow } | { error: RowError } {
  const { row } = candidate;
  const shownEmail = typeof candidate.email === 'string' ? candidate.email.slice(0, MAX_EMAIL_LENGTH) : null;
  const fail = (reason: string) => ({
    error: {
      row,
      email: shownEmail !== null && problemOf(shownEmail) ? JSON.stringify(shownEmail).slice(1, -1) : shownEmail,
      reason,
    },
  });
  if (candidate.email === undefined || candidate.email === null || candidate.email === '')
    return fail('email: is required');
  if (typeof candidate.email !== 'string') return fail('email: must be a string');
  if (candidate.email.length > MAX_EMAIL_LENGTH) return fail(`email: must be at most ${MAX_EMAIL_LENGTH} characters`);
  const email = normalizeEmailAddress(candidate.email);
  if (!email.ok) return fail(`email: ${email.reason}`);
  const firstName = checkName('first_name', candidate.firstName);
  if ('reason' in firstName) return fail(firstName.reason);
  const lastName = checkName('last_name', candidate.lastName);
  if ('reason' in lastName) return fail(lastName.reason);
  const attributes: Record<string, unknown> = {};
  for (const key of Object.keys(candidate.attributes)) {
    const keyProblem = problemOf(key);
    if (keyProblem) return fail(`attribute name ${keyProblem}`);
    const value = candidate.attributes[key];
    if (value === null || value === undefined) continue;
    if (typeof value === 'string') {
      const problem = problemOf(value);
      if (problem) return fail(`attribute \`${key}\` ${problem}`);
    }
    Object.defineProperty(attributes, key, { value, enumerable: true, writable: true, configurable: true });
  }
  const errors = checkAttributeValues(definitions, attributes);
  if (errors.length > 0) return fail(errors.map((error) => error.message).join('; '));
  return { row: { row, email: email.email, firstName: firstName.value, lastName: lastName.value, attributes } };
}
