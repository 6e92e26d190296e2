import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, test } from 'vitest';
import {
  attributeCell,
  exportHeader,
  exportRecord,
  neutraliseCell,
} from '@/lib/core/contact-exports/internal/csv-cells';

const contact = (overrides: Partial<Parameters<typeof exportRecord>[0]> = {}) => ({
  id: '0192a3b4-0000-7000-8000-000000000001',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  unsubscribed: false,
  createdAt: new Date('2026-01-05T10:30:00.000Z'),
  attributes: {},
  ...overrides,
});

describe('CSV injection (OWASP): a text cell a spreadsheet would run as a formula gets a leading apostrophe', () => {
  test.each([
    ['=HYPERLINK("http://evil.example","x")', `'=HYPERLINK("http://evil.example","x")`],
    ['+1+cmd|/C calc!A0', `'+1+cmd|/C calc!A0`],
    ['-2+3', `'-2+3`],
    ['@SUM(A1:A9)', `'@SUM(A1:A9)`],
    ['\t=1', `'\t=1`],
    ['\r=1', `'\r=1`],
    ['plain', 'plain'],
    ['a=b', 'a=b'],
    ['', ''],
  ])('%j becomes %j', (input, expected) => {
    expect(neutraliseCell(input)).toBe(expected);
  });

  test('names and attribute strings are neutralised; numbers stay numbers (-5 is not a formula)', () => {
    const cells = exportRecord(contact({ firstName: '=cmd', lastName: '@x', attributes: { debt: -5, note: '-x' } }), [
      'debt',
      'note',
    ]);
    expect(cells.slice(1, 3)).toEqual([`'=cmd`, `'@x`]);
    expect(cells.slice(5)).toEqual(['-5', `'-x`]);
  });

  test('nested JSON that starts like a formula is neutralised too', () => {
    expect(attributeCell(['=1'])).toBe('["=1"]');
    expect(attributeCell({ a: 1 })).toBe('{"a":1}');
  });
});

describe('columns and values', () => {
  test('the header is the contact columns, then one per attribute definition', () => {
    expect(exportHeader(['age', 'plan'])).toEqual([
      'email',
      'first_name',
      'last_name',
      'unsubscribed',
      'created_at',
      'age',
      'plan',
    ]);
    expect(exportHeader([])).toHaveLength(5);
  });

  test('each definition has its cell; a missing or null value is empty; nested values are JSON', () => {
    const cells = exportRecord(
      contact({
        unsubscribed: true,
        firstName: null,
        attributes: { age: 42, vip: true, prefs: { lang: 'fr', tags: ['a', 'b'] }, nothing: null },
      }),
      ['age', 'missing', 'nothing', 'prefs', 'vip'],
    );
    expect(cells).toEqual([
      'ada@example.com',
      '',
      'Lovelace',
      'true',
      '2026-01-05T10:30:00.000Z',
      '42',
      '',
      '',
      '{"lang":"fr","tags":["a","b"]}',
      'true',
    ]);
  });

  test('unicode, commas, quotes and newlines round-trip through the stringifier and a CSV parser', () => {
    const hostile = contact({
      firstName: 'Zoë, "the" 🦄',
      lastName: 'line one\nline two\r\nthree',
      attributes: { note: 'comma, "quote" and ; semicolon', city: 'Zürich 東京' },
    });
    const keys = ['city', 'note'];
    const text = stringify([exportHeader(keys), exportRecord(hostile, keys)], { record_delimiter: 'unix' });
    const [header, row] = parse(text) as string[][];
    expect(header).toEqual(exportHeader(keys));
    expect(row).toEqual(exportRecord(hostile, keys));
    expect(row[1]).toBe('Zoë, "the" 🦄');
    expect(row[2]).toBe('line one\nline two\r\nthree');
  });
});
