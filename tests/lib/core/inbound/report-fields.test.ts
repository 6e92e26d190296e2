import { describe, expect, it } from 'vitest';
import {
  angleAddress,
  FIELD_LIMITS,
  parseFieldBlocks,
  parseHeaderSection,
  typedAddress,
  typedText,
} from '@/lib/core/inbound/internal/report-fields';

describe('parseFieldBlocks', () => {
  it('splits blocks on blank lines, lower-cases names, unfolds continuation lines, first occurrence wins', () => {
    const blocks = parseFieldBlocks(
      'Reporting-MTA: dns; mx.example.net\r\n\r\nFinal-Recipient: rfc822; a@b.example\r\nAction: failed\r\nAction: delivered\r\nDiagnostic-Code: smtp; 550 5.1.1 user\r\n    unknown\r\n\tin table\r\n\r\n\r\n',
    );
    expect(blocks).toEqual([
      new Map([['reporting-mta', 'dns; mx.example.net']]),
      new Map([
        ['final-recipient', 'rfc822; a@b.example'],
        ['action', 'failed'],
        ['diagnostic-code', 'smtp; 550 5.1.1 user unknown in table'],
      ]),
    ]);
  });

  it('LF-only and whitespace-only separator lines work too; lines without a field name are skipped', () => {
    const blocks = parseFieldBlocks('A: 1\n  \nnot a field\n: no name\nB: 2\n   continued\n');
    expect(blocks).toEqual([new Map([['a', '1']]), new Map([['b', '2 continued']])]);
  });

  it.each([
    [
      'a folded line cannot start a field: it is more of the diagnostic',
      'Diagnostic-Code: smtp; 550 x\r\n Action: delivered\r\nAction: failed',
      'smtp; 550 x Action: delivered',
      'failed',
    ],
    [
      'NUL, ESC and lone CR become spaces',
      'Diagnostic-Code: smtp; 550 a\u0000b\u001b[31mc\rAction: delivered\r\nAction: failed',
      'smtp; 550 a b [31mc',
      'failed',
    ],
    [
      'markup stays text',
      'Diagnostic-Code: <script>alert(1)</script>\r\nAction: failed',
      '<script>alert(1)</script>',
      'failed',
    ],
  ])('header injection in Diagnostic-Code is carried as data: %s', (_, text, diagnostic, action) => {
    const [block] = parseFieldBlocks(text);
    expect(block.get('action')).toBe(action);
    expect(block.get('diagnostic-code')?.startsWith(diagnostic)).toBe(true);
    for (const value of block.values()) expect(value).not.toMatch(/[\r\n\u0000]/);
  });

  it('bounds blocks, fields per block and value length', () => {
    const many = Array.from({ length: 500 }, (_, index) => `F: ${index}`).join('\n\n');
    expect(parseFieldBlocks(many)).toHaveLength(FIELD_LIMITS.blocks);
    const wide = Array.from({ length: 500 }, (_, index) => `F${index}: x`).join('\n');
    expect(parseFieldBlocks(wide)[0].size).toBe(FIELD_LIMITS.fieldsPerBlock);
    expect(parseFieldBlocks(`X: ${'a'.repeat(10_000)}`)[0].get('x')).toHaveLength(FIELD_LIMITS.valueLength);
    const folded = `X: a\n${' b\n'.repeat(50_000)}`;
    expect(parseFieldBlocks(folded)[0].get('x')!.length).toBeLessThanOrEqual(FIELD_LIMITS.valueLength);
  });

  it('parseHeaderSection stops at the first blank line', () => {
    expect(parseHeaderSection('Return-Path: <x@y>\r\nMessage-ID: <m@y>\r\n\r\nReturn-Path: <evil@z>\r\n')).toEqual(
      new Map([
        ['return-path', '<x@y>'],
        ['message-id', '<m@y>'],
      ]),
    );
  });
});

describe('typed values', () => {
  it.each([
    ['rfc822; A@B.example', 'a@b.example'],
    ['rfc822;<a@b.example>', 'a@b.example'],
    ['a@b.example', 'a@b.example'],
    ['rfc822; not an address', null],
    ['', null],
    [undefined, null],
  ])('typedAddress(%j) is %j', (value, expected) => expect(typedAddress(value)).toBe(expected));

  it('typedText keeps what follows the type; angleAddress reads <...>', () => {
    expect(typedText('smtp; 550 5.1.1 unknown')).toBe('550 5.1.1 unknown');
    expect(typedText('no type here')).toBe('no type here');
    expect(angleAddress('<Bounces+ABC@rp.acme.example>')).toBe('bounces+abc@rp.acme.example');
    expect(angleAddress('"Name" <a@b.example>')).toBe('a@b.example');
    expect(angleAddress('<>')).toBeNull();
  });
});
