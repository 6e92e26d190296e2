/**
 * R4: a contact write carries only keys the account has defined, each in the canonical JSON form of
 * its type. Pure, so the API, the import worker and the dashboard form check values the same way.
 */

export const ATTRIBUTE_TYPES = ['string', 'number', 'boolean', 'date', 'datetime'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

export type AttributeValueError = { key: string; message: string };

/** A string attribute is a value to merge into mail, not a document: longer ones are refused. */
export const MAX_ATTRIBUTE_STRING_LENGTH = 10_000;

const EXAMPLES: Record<AttributeType, string> = {
  string: 'a string, e.g. "gold"',
  number: 'a number, e.g. 42',
  boolean: 'a boolean, e.g. true',
  date: 'a date as "YYYY-MM-DD", e.g. "2024-01-05"',
  datetime: 'an RFC 3339 datetime, e.g. "2024-01-05T10:30:00Z"',
};

/** How a value of this type must be written, for messages and documentation. */
export function describeAttributeType(type: AttributeType): string {
  return EXAMPLES[type];
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 section 5.6: full-date "T" full-time, with a mandatory offset (Z or +hh:mm).
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

function isCanonicalDate(value: string): boolean {
  const match = DATE.exec(value);
  return !!match && isRealDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

function isCanonicalDatetime(value: string): boolean {
  const match = DATETIME.exec(value);
  if (!match) return false;
  const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6])];
  // A leap second (60) is valid RFC 3339.
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (match[9] !== undefined && (Number(match[9]) > 23 || Number(match[10]) > 59)) return false;
  return isRealDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** Whether `value` is the canonical JSON form of `type`. */
export function isCanonicalAttributeValue(type: AttributeType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return typeof value === 'string' && isCanonicalDate(value);
    case 'datetime':
      return typeof value === 'string' && isCanonicalDatetime(value);
  }
}

/**
 * Checks `attributes` against the account's definitions: one error per offending key, in the order
 * of the input. `null` is accepted for any defined key: it clears the value.
 */
export function checkAttributeValues(
  definitions: { key: string; type: AttributeType }[],
  attributes: Record<string, unknown>,
): AttributeValueError[] {
  // A Map, not an object: keys like `__proto__` or `constructor` must not find inherited members.
  const types = new Map(definitions.map((definition) => [definition.key, definition.type]));
  const errors: AttributeValueError[] = [];
  for (const key of Object.keys(attributes)) {
    const type = types.get(key);
    const value = attributes[key];
    if (type === undefined) {
      errors.push({ key, message: `attribute \`${key}\` is not defined for this account` });
    } else if (value !== null && !isCanonicalAttributeValue(type, value)) {
      errors.push({ key, message: `attribute \`${key}\` must be ${describeAttributeType(type)}` });
    } else if (typeof value === 'string' && value.length > MAX_ATTRIBUTE_STRING_LENGTH) {
      errors.push({ key, message: `attribute \`${key}\` must be at most ${MAX_ATTRIBUTE_STRING_LENGTH} characters` });
    }
  }
  return errors;
}
