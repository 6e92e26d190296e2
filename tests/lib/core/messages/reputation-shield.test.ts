import { describe, expect, it } from 'vitest';
import { likelyIntendedDomain, shieldRefusal, SHIELD_OFF } from '@/lib/core/messages/reputation-shield';

const ON = { rejectBadRecipients: true, rejectMistypedRecipients: true };

describe('Reputation Shield', () => {
  it.each([
    ['gmial.com', 'gmail.com'],
    ['gmai.com', 'gmail.com'],
    ['gmail.con', 'gmail.com'],
    ['gmail.co', 'gmail.com'],
    ['hotmial.com', 'hotmail.com'],
    ['yahooo.com', 'yahoo.com'],
    ['outlok.com', 'outlook.com'],
    ['iclod.com', 'icloud.com'],
  ])('%s is a typo of %s', (domain, intended) => {
    expect(likelyIntendedDomain(domain)).toBe(intended);
    expect(shieldRefusal(domain, ON)).toMatch(
      new RegExp(`typo of ${intended.replace('.', '\\.')}.*reject_mistyped_recipients`),
    );
  });

  it.each([
    'gmail.com',
    'email.com',
    'ymail.com',
    'hotmail.co.uk',
    'yahoo.co.jp',
    'example.com',
    'aol.com',
    'aob.com',
    'acme.example.org',
    'mail.google.com',
  ])('%s is not a typo', (domain) => {
    expect(likelyIntendedDomain(domain)).toBeNull();
  });

  it('refuses disposable domains and their subdomains only with reject_bad_recipients', () => {
    expect(shieldRefusal('mailinator.com', ON)).toMatch(/disposable.*reject_bad_recipients/);
    expect(shieldRefusal('eu.mailinator.com', ON)).toMatch(/disposable/);
    expect(shieldRefusal('notmailinator.com', ON)).toBeNull();
    expect(shieldRefusal('mailinator.com', { ...ON, rejectBadRecipients: false })).toBeNull();
    expect(shieldRefusal('gmial.com', { ...ON, rejectMistypedRecipients: false })).toBeNull();
  });

  it('refuses nothing while both switches are off', () => {
    for (const domain of ['mailinator.com', 'gmial.com', 'example.com'])
      expect(shieldRefusal(domain, SHIELD_OFF)).toBeNull();
  });
});
