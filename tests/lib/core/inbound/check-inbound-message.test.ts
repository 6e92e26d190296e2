import { describe, expect, it } from 'vitest';
import { checkInboundMessage, INBOUND_MESSAGE_LIMITS } from '@/lib/core/inbound/internal/check-inbound-message';
import { hugeHeaderMail, loopingMail } from '../../../../e2e/support/hostile-mail';

const check = (text: string) => checkInboundMessage(Buffer.from(text, 'latin1'));
const received = (count: number, eol = '\r\n') =>
  Array.from(
    { length: count },
    (_, hop) =>
      `Received: from r${hop}.example.org${eol}\tby r${hop + 1}.example.org; Mon, 6 May 2024 13:15:00 +0000${eol}`,
  ).join('');

describe('checkInboundMessage: the limits on the message header', () => {
  it('passes ordinary mail, 50 hops, and a header just under the limit', () => {
    expect(check(loopingMail('a@example.com', 1))).toBeNull();
    expect(check(loopingMail('a@example.com', INBOUND_MESSAGE_LIMITS.receivedHeaders))).toBeNull();
    expect(check(hugeHeaderMail('a@example.com', INBOUND_MESSAGE_LIMITS.headerBytes - 2000))).toBeNull();
  });

  it.each([
    ['CRLF', '\r\n'],
    ['bare LF', '\n'],
  ])('refuses 51 Received fields (%s line ends), whatever their case and spacing', (_name, eol) => {
    const header = received(49, eol) + `RECEIVED: from x${eol}received : from y${eol}`;
    expect(check(`${header}Subject: loop${eol}${eol}body${eol}`)).toEqual({
      kind: 'too_many_hops',
      reason: 'too many hops: 51 Received headers, at most 50 (a mail loop?)',
    });
  });

  it('counts Received in the header only: not in the body, not in a folded line, not X-Received', () => {
    const body = received(60);
    expect(check(`${received(50)}X-Received: by google\r\nSubject: s\r\n  Received: folded\r\n\r\n${body}`)).toBeNull();
    expect(check(`\r\n${received(60)}`)).toBeNull();
  });

  it('refuses a header section over the limit, ended or not', () => {
    const refusal = {
      kind: 'header_too_large',
      reason: `the header section of the message exceeds ${INBOUND_MESSAGE_LIMITS.headerBytes} bytes`,
    };
    expect(check(hugeHeaderMail('a@example.com', 2 * 1024 * 1024))).toEqual(refusal);
    expect(check(`Subject: s\r\nX-Long: ${'a'.repeat(INBOUND_MESSAGE_LIMITS.headerBytes)}`)).toEqual(refusal);
    // A small message that is all header (no empty line) is not over anything.
    expect(check('Subject: s\r\nX: y')).toBeNull();
  });
});
