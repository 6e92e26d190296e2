import { describe, expect, it } from 'vitest';
import { parseRawMessage } from '@/lib/core/messages/internal/raw-message';
import { submissionSenders } from '@/lib/core/messages/internal/submission-senders';
import { AppError } from '@/lib/shared/errors';

const senders = (head: string) => submissionSenders(parseRawMessage(`${head}\r\nSubject: x\r\n\r\nbody\r\n`)!);

function refusal(head: string): { field?: string; message: string } {
  try {
    senders(head);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error(`accepted: ${head}`);
}

describe('submissionSenders', () => {
  it('reads every mailbox of From (groups flattened) and of Sender', () => {
    expect(senders('From: Shop <shop@own.example>')).toEqual({ from: ['shop@own.example'], sender: [] });
    expect(senders('From: Team: a@own.example, "B, C" <b@other.example>;\r\nSender: s@third.example')).toEqual({
      from: ['a@own.example', 'b@other.example'],
      sender: ['s@third.example'],
    });
    expect(senders('From: =?utf-8?Q?Jos=C3=A9?=\r\n <jose@own.example>')).toEqual({
      from: ['jose@own.example'],
      sender: [],
    });
  });

  it.each([
    ['a second From', 'From: shop@own.example\r\nFrom: ceo@other.example', /2 From header fields/],
    ['a second from in lower case', 'From: shop@own.example\r\nfrom: ceo@other.example', /2 From header fields/],
    [
      'a second From with a space before the colon',
      'From: shop@own.example\r\nFrom : ceo@other.example',
      /2 From header fields/,
    ],
    ['a second From, folded', 'From: shop@own.example\r\nFROM:\r\n ceo@other.example', /2 From header fields/],
    [
      'two Sender fields',
      'From: shop@own.example\r\nSender: a@own.example\r\nsender: ceo@other.example',
      /2 Sender header fields/,
    ],
    ['an encoded word hiding the address', 'From: =?utf-8?B?PGNlb0BvdGhlci5leGFtcGxlPg==?=', /without an address/],
    ['a bare name after an address', 'From: shop@own.example, Ceo', /"Ceo" without an address/],
  ])('refuses %s (field "headers")', (_case, head, message) => {
    const error = refusal(head);
    expect(error.field).toBe('headers');
    expect(error.message).toMatch(message);
  });

  it('refuses a message without a From address', () => {
    expect(refusal('To: a@b.example').message).toBe('the message has no From address');
    expect(refusal('From: Undisclosed:;').message).toBe('the message has no From address');
  });
});
