import { describe, expect, it } from 'vitest';
import { likelyIntendedDomain, listMistypedDomains } from '@/lib/core/messages/reputation-shield';
import { confirmationMail } from '@/lib/core/signup-forms/internal/send-confirmation-mail';
import {
  confirmationState,
  confirmationTokenHash,
  newConfirmationToken,
  signupStatusFor,
} from '@/lib/core/signup-forms/internal/signup-rules';
import { OversizeSignup, readSignupValues } from '@/lib/core/signup-forms/internal/signup-values';

describe('what a signup makes of a membership', () => {
  it.each([
    [null, true, 'unconfirmed'],
    [null, false, 'confirmed'],
    ['unconfirmed', true, null],
    ['unconfirmed', false, 'confirmed'],
    ['confirmed', true, null],
    ['confirmed', false, null],
    ['unsubscribed', true, null],
    ['unsubscribed', false, null],
    ['complained', true, null],
    ['complained', false, null],
  ] as const)('%s with double opt-in %s becomes %s', (current, isDoubleOptIn, expected) => {
    expect(signupStatusFor(current, isDoubleOptIn)).toBe(expected);
  });
});

describe('confirmation links', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  const later = new Date('2026-11-23T10:00:00Z');

  it('a token is 43 letters and digits, looked up only by its hash', () => {
    const { token, hash } = newConfirmationToken();
    expect(token).toMatch(/^[A-Za-z0-9]{43}$/);
    expect(confirmationTokenHash(token)).toBe(hash);
    expect(hash).not.toContain(token);
    expect(newConfirmationToken().token).not.toBe(token);
  });

  it.each(['', 'short', `${'a'.repeat(42)}!`, '../../etc/passwd', 'a'.repeat(44), `${'a'.repeat(42)}\u0000`])(
    'a token not of our shape (%j) is not looked up',
    (token) => expect(confirmationTokenHash(token)).toBeNull(),
  );

  it('works until it expires, once', () => {
    expect(confirmationState({ usedAt: null, expiresAt: later }, now)).toBe('usable');
    expect(confirmationState({ usedAt: null, expiresAt: now }, now)).toBe('expired');
    expect(confirmationState({ usedAt: now, expiresAt: later }, now)).toBe('used');
    expect(confirmationState({ usedAt: now, expiresAt: now }, later)).toBe('used');
  });
});

describe('posted values', () => {
  const fields = [
    { key: 'age', type: 'number' as const },
    { key: 'vip', type: 'boolean' as const },
    { key: 'birthday', type: 'date' as const },
    { key: 'company', type: 'string' as const },
  ];

  it('a browser post is read by type; empty fields are not sent at all', () => {
    expect(
      readSignupValues(
        { first_name: ' Ada ', last_name: '', age: '42', vip: 'on', birthday: '', company: 'X' },
        fields,
        true,
      ),
    ).toEqual({ firstName: 'Ada', lastName: undefined, attributes: { age: 42, vip: true, company: 'X' } });
  });

  it('a bad value is 400 naming its field', () => {
    expect(() => readSignupValues({ age: 'twelve' }, fields, true)).toThrow(/^age: /);
    expect(() => readSignupValues({ birthday: '2024-1-5' }, fields, true)).toThrow(/^birthday: /);
    // JSON must be canonical, as on the API (R4).
    expect(() => readSignupValues({ age: '12' }, fields, false)).toThrow(/^age: /);
    expect(() => readSignupValues({ first_name: 12 }, fields, false)).toThrow(/^first_name: /);
  });

  it('fields the form does not ask for are ignored, prototype keys included', () => {
    expect(
      readSignupValues({ secret: 'x', __proto__: { age: 1 }, constructor: 'y' }, fields, false).attributes,
    ).toEqual({});
  });

  it('an oversize name or value is a robot, not an error', () => {
    expect(() => readSignupValues({ first_name: 'a'.repeat(300) }, fields, true)).toThrow(OversizeSignup);
    expect(() => readSignupValues({ company: 'a'.repeat(1001) }, fields, true)).toThrow(OversizeSignup);
  });
});

describe('the confirmation mail', () => {
  const url = 'https://mail.example/f/confirm/abc';

  it('puts the link where the placeholder is, or below the text', () => {
    const placed = confirmationMail(
      { confirmationSubject: null, confirmationText: 'Hi!\n\n{{ confirm_url }}\n\nBye' },
      url,
    );
    expect(placed.text).toBe(`Hi!\n\n${url}\n\nBye`);
    const below = confirmationMail({ confirmationSubject: 'Confirm', confirmationText: 'Hi!' }, url);
    expect(below).toMatchObject({ subject: 'Confirm', text: `Hi!\n\n${url}` });
    expect(below.html).toContain(`<a href="${url}">`);
  });

  it('escapes what the form owner wrote and never evaluates it', () => {
    const mail = confirmationMail(
      { confirmationSubject: '{{ 7*7 }}', confirmationText: '<script>alert(1)</script> {{ 7*7 }} & "x"' },
      url,
    );
    expect(mail.subject).toBe('{{ 7*7 }}');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; {{ 7*7 }} &amp; &quot;x&quot;');
    expect(mail.html).not.toContain('<script>');
  });
});

describe('the Reputation Shield as a set, for campaign audiences', () => {
  const domains = listMistypedDomains();

  it('holds exactly domains likelyIntendedDomain calls typos', () => {
    expect(domains.length).toBeGreaterThan(1000);
    expect(domains.every((domain) => likelyIntendedDomain(domain) !== null)).toBe(true);
    for (const typo of ['gmial.com', 'gmai.com', 'gmaill.com', 'hotmial.com', 'gmail.con', 'yahoo.cmo', 'outlok.com'])
      expect(domains).toContain(typo);
    for (const real of ['gmail.com', 'email.com', 'ymail.com', 'example.org', 'mail.com'])
      expect(domains).not.toContain(real);
  });
});
