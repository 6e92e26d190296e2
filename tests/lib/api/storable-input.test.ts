import { describe, expect, it } from 'vitest';
import { findUnstorableJson, findUnstorableParameter, MAX_JSON_DEPTH } from '@/lib/api/storable-input';

const nested = (levels: number, leaf: unknown = 'x'): unknown => {
  let value: unknown = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

describe('findUnstorableJson', () => {
  const refused: [string, unknown, string][] = [
    ['a NUL in a top-level string', { subject: 'a\u0000b' }, 'subject: contains a NUL character'],
    [
      'a NUL deep in substitutions',
      { recipients: [{ email: 'x@y.z', substitutions: { name: 'N\u0000' } }] },
      'recipients.0.substitutions.name: contains a NUL character',
    ],
    ['a NUL in an array of strings', { scopes: ['ok', '\u0000'] }, 'scopes.1: contains a NUL character'],
    ['an unpaired high surrogate', { subject: 'a\ud800' }, 'subject: contains an unpaired surrogate'],
    ['an unpaired low surrogate', { html_content: '\udc00b' }, 'html_content: contains an unpaired surrogate'],
    [
      'a NUL in an object key',
      { headers: { 'X-\u0000': 'v' } },
      'headers.X-\\u0000: the name contains a NUL character',
    ],
    [
      'a surrogate in an object key',
      { substitutions: { '\ud800': 1 } },
      'substitutions.\\ud800: the name contains an unpaired surrogate',
    ],
    [
      'substitutions nested 10,000 deep',
      { substitutions: nested(10_000) },
      `substitutions.a.a.a.…: nested deeper than ${MAX_JSON_DEPTH} levels`,
    ],
  ];
  for (const [name, body, message] of refused) {
    it(`refuses ${name}, naming the path`, () => {
      const error = findUnstorableJson(body);
      expect(error?.kind).toBe('invalid_input');
      expect(error?.message).toBe(message);
    });
  }

  it('never puts the bad character itself into the message', () => {
    const error = findUnstorableJson({ ['k\u0000\ud800']: 1 });
    expect(error?.message).not.toMatch(/[\u0000\ud800]/);
  });

  it(`accepts ${MAX_JSON_DEPTH} levels of nesting below the body and refuses one more`, () => {
    expect(findUnstorableJson({ substitutions: nested(MAX_JSON_DEPTH) })).toBeNull();
    expect(findUnstorableJson({ substitutions: nested(MAX_JSON_DEPTH + 1) })?.message).toMatch(
      /nested deeper than 32 levels/,
    );
    expect(findUnstorableJson({ list: nested(MAX_JSON_DEPTH + 1, []) })?.message).toMatch(/^list\.a\.a\.a\.…: nested/);
    expect(findUnstorableJson({ list: [[[[]]]] })).toBeNull();
  });

  it('accepts paired surrogates (emoji), other control characters and non-string values', () => {
    expect(
      findUnstorableJson({ subject: 'hi 😀 \u0001\t', n: 1, b: true, z: null, list: [1, { ok: '✓' }] }),
    ).toBeNull();
  });

  it('walks a very wide body without recursion', () => {
    expect(findUnstorableJson({ items: Array.from({ length: 200_000 }, (_, i) => ({ i })) })).toBeNull();
  });
});

describe('findUnstorableParameter', () => {
  it('refuses a NUL in a value or a name, naming the parameter', () => {
    expect(findUnstorableParameter({ sender: ['ok', 'a\u0000'] })?.message).toBe('sender: contains a NUL character');
    expect(findUnstorableParameter({ domain: 'x\u0000' })?.message).toBe('domain: contains a NUL character');
    expect(findUnstorableParameter({ 'a\u0000': ['1'] })?.message).toBe('a\\u0000: the name contains a NUL character');
    expect(findUnstorableParameter({ subject: ['\ud800'] })?.message).toBe('subject: contains an unpaired surrogate');
  });

  it('accepts ordinary parameters', () => {
    expect(findUnstorableParameter({ status: ['Delivered,Bounced'], sender: [''] })).toBeNull();
  });
});
