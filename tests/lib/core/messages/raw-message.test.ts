import { describe, expect, it } from 'vitest';
import { formatRawMessage, headerValue, parseRawMessage } from '@/lib/core/messages/internal/raw-message';

describe('parseRawMessage', () => {
  const raw =
    'From: Shop <shop@example.com>\r\nMessage-ID:\r\n <a@b>\r\nAhaSend-Tags: a,\r\n\tb\r\nSubject: Hi\r\n\r\nbody\r\n\r\nmore\r\n';

  it('unfolds values, keeps the lines as written, and leaves the body alone', () => {
    const message = parseRawMessage(raw)!;
    expect(headerValue(message, 'message-id')).toBe('<a@b>');
    expect(headerValue(message, 'ahasend-tags')).toBe('a, b');
    expect(message.body).toBe('body\r\n\r\nmore\r\n');
    expect(formatRawMessage(message)).toBe(raw);
  });

  it('drops fields without leaving a blank line, and adds fields first', () => {
    const message = parseRawMessage(raw)!;
    const kept = {
      ...message,
      headers: message.headers.filter((header) => !header.name.toLowerCase().startsWith('ahasend-')),
    };
    expect(formatRawMessage(kept, [['Date', 'now']])).toBe(
      'Date: now\r\nFrom: Shop <shop@example.com>\r\nMessage-ID:\r\n <a@b>\r\nSubject: Hi\r\n\r\nbody\r\n\r\nmore\r\n',
    );
  });

  it('refuses a header line without a colon', () => {
    expect(parseRawMessage('not a header\r\n\r\nbody')).toBeNull();
  });
});
