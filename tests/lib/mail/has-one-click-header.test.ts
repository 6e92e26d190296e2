import { describe, expect, it } from 'vitest';
import { hasOneClickHeader } from '@/lib/mail/delivery-pipeline';

const mail = (head: string, body = 'Hello') => Buffer.from(`${head.split('\n').join('\r\n')}\r\n\r\n${body}`);

describe('hasOneClickHeader', () => {
  it('finds List-Unsubscribe-Post in the header block, in any case and position', () => {
    expect(hasOneClickHeader(mail('From: a@b.example\nlist-unsubscribe-post: List-Unsubscribe=One-Click'))).toBe(true);
    expect(hasOneClickHeader(mail('List-Unsubscribe-Post: List-Unsubscribe=One-Click\nFrom: a@b.example'))).toBe(true);
  });

  it('is not fooled by the body, or by a header that merely contains the name', () => {
    expect(hasOneClickHeader(mail('From: a@b.example', 'List-Unsubscribe-Post: List-Unsubscribe=One-Click'))).toBe(
      false,
    );
    expect(hasOneClickHeader(mail('X-Old-List-Unsubscribe-Post: yes\nSubject: List-Unsubscribe-Post:'))).toBe(false);
  });
});
