import { checkAttributeValues, type AttributeType } from '@/lib/core/contacts/attribute-values';
import { MAX_NAME_LENGTH } from '@/lib/core/contacts/schemas';
import { invalidInput } from '@/lib/shared/errors';

export type SignupValues = {
  firstName: string | undefined;
  lastName: string | undefined;
  attributes: Record<string, unknown>;
};

/** Fields larger than any real answer: a post holding one is a robot's, dropped quietly. */
export class OversizeSignup extends Error {}

/**
 * A form value as the attribute's type wants it. A browser posts strings: numbers, booleans (a
 * checkbox's "on") and dates are read from them; JSON must already be canonical (R4).
 */
function fromFormString(type: AttributeType, value: string): unknown {
  if (type === 'number' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value.trim());
  if (type === 'boolean') {
    if (['on', 'true', 'yes', '1'].includes(value.toLowerCase())) return true;
    if (['off', 'false', 'no', '0'].includes(value.toLowerCase())) return false;
  }
  return type === 'string' ? value : value.trim();
}

const asText = (value: unknown): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidInput('must be a string');
  const trimmed = value.trim();
  if (trimmed.length > MAX_NAME_LENGTH) throw new OversizeSignup();
  return trimmed || undefined;
};

/**
 * The names and the form's attribute values of a post, checked by type (400 naming the field). Empty
 * and absent fields are not sent: a signup never clears or overwrites what it was not given.
 */
export function readSignupValues(
  posted: Record<string, unknown>,
  fields: { key: string; type: AttributeType }[],
  isFormEncoded: boolean,
): SignupValues {
  let firstName: string | undefined;
  let lastName: string | undefined;
  try {
    firstName = asText(posted.first_name);
  } catch (error) {
    if (error instanceof OversizeSignup) throw error;
    throw invalidInput('first_name: must be a string', 'first_name');
  }
  try {
    lastName = asText(posted.last_name);
  } catch (error) {
    if (error instanceof OversizeSignup) throw error;
    throw invalidInput('last_name: must be a string', 'last_name');
  }
  const attributes: Record<string, unknown> = {};
  for (const { key, type } of fields) {
    const value = Object.hasOwn(posted, key) ? posted[key] : undefined;
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'string' && value.length > 1000) throw new OversizeSignup();
    attributes[key] = isFormEncoded && typeof value === 'string' ? fromFormString(type, value) : value;
  }
  const [error] = checkAttributeValues(fields, attributes);
  if (error) throw invalidInput(`${error.key}: ${error.message}`, error.key);
  return { firstName, lastName, attributes };
}
