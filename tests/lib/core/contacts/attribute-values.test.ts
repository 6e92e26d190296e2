import { describe, expect, it } from 'vitest';
import {
  checkAttributeValues,
  isCanonicalAttributeValue,
  type AttributeType,
} from '@/lib/core/contacts/attribute-values';

const definitions: { key: string; type: AttributeType }[] = [
  { key: 'plan', type: 'string' },
  { key: 'age', type: 'number' },
  { key: 'vip', type: 'boolean' },
  { key: 'birthday', type: 'date' },
  { key: 'signed_up', type: 'datetime' },
];

describe('checkAttributeValues (R4)', () => {
  it('accepts canonical values of every type, and null for any defined key', () => {
    expect(
      checkAttributeValues(definitions, {
        plan: 'gold',
        age: 42,
        vip: true,
        birthday: '2024-02-29',
        signed_up: '2024-01-05T10:30:00.123+02:00',
      }),
    ).toEqual([]);
    expect(checkAttributeValues(definitions, { plan: null, age: null })).toEqual([]);
    expect(checkAttributeValues(definitions, {})).toEqual([]);
  });

  const refused: [string, unknown, RegExp][] = [
    ['age', '12', /attribute `age` must be a number, e.g. 42/],
    ['age', Number.NaN, /must be a number/],
    ['vip', 'true', /attribute `vip` must be a boolean, e.g. true/],
    ['vip', 1, /must be a boolean/],
    ['birthday', '2024-1-5', /attribute `birthday` must be a date as "YYYY-MM-DD"/],
    ['birthday', '2023-02-29', /must be a date/],
    ['birthday', '2024-01-05T00:00:00Z', /must be a date/],
    ['signed_up', '2024-01-05T10:30:00', /attribute `signed_up` must be an RFC 3339 datetime/],
    ['signed_up', '2024-01-05 10:30:00Z', /RFC 3339/],
    ['signed_up', '2024-13-05T10:30:00Z', /RFC 3339/],
    ['signed_up', '2024-01-05T25:30:00Z', /RFC 3339/],
    ['plan', 5, /attribute `plan` must be a string/],
    ['plan', { nested: true }, /must be a string/],
    ['age', [1], /must be a number/],
  ];
  for (const [key, value, message] of refused) {
    it(`refuses ${key} = ${JSON.stringify(value)}`, () => {
      expect(checkAttributeValues(definitions, { [key]: value })).toEqual([
        { key, message: expect.stringMatching(message) },
      ]);
    });
  }

  it('names every unknown key, including keys that are members of Object.prototype', () => {
    const attributes = JSON.parse(
      '{"__proto__": 1, "constructor": "x", "toString": 2, "plan": "ok", "nope": true}',
    ) as Record<string, unknown>;
    const errors = checkAttributeValues(definitions, attributes);
    expect(errors.map((error) => error.key)).toEqual(['__proto__', 'constructor', 'toString', 'nope']);
    expect(errors[0].message).toBe('attribute `__proto__` is not defined for this account');
  });

  it('refuses string values over 10,000 characters', () => {
    expect(checkAttributeValues(definitions, { plan: 'x'.repeat(10_000) })).toEqual([]);
    expect(checkAttributeValues(definitions, { plan: 'x'.repeat(10_001) })).toEqual([
      { key: 'plan', message: 'attribute `plan` must be at most 10000 characters' },
    ]);
  });

  it('reports one error per key, in the order of the input', () => {
    expect(checkAttributeValues(definitions, { vip: 'no', age: '1' }).map((error) => error.key)).toEqual([
      'vip',
      'age',
    ]);
  });

  it('knows a leap second and offsets in datetimes', () => {
    expect(isCanonicalAttributeValue('datetime', '2016-12-31T23:59:60Z')).toBe(true);
    expect(isCanonicalAttributeValue('datetime', '2024-01-05t10:30:00z')).toBe(true);
    expect(isCanonicalAttributeValue('datetime', '2024-01-05T10:30:00+24:00')).toBe(false);
  });
});
