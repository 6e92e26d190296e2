import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, randomToken, SecretBox, verifyPassword } from '@/lib/shared/crypto';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips per purpose and refuses another purpose or a tampered ciphertext', () => {
    const sealed = box.encrypt('dkim', 'private key');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('private key');
    expect(box.decrypt('dkim', sealed)).toBe('private key');
    expect(() => box.decrypt('webhook', sealed)).toThrow();
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.decrypt('dkim', tampered)).toThrow();
  });

  it('cannot be opened with another master key, and fingerprints differ', () => {
    const other = new SecretBox(randomBytes(32));
    expect(() => other.decrypt('dkim', box.encrypt('dkim', 'x'))).toThrow();
    expect(other.fingerprint()).not.toBe(box.fingerprint());
    expect(new SecretBox(Buffer.from(box['masterKey'])).fingerprint()).toBe(box.fingerprint());
  });

  it('refuses a short master key', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow();
  });
});

describe('passwords', () => {
  it('verifies the right password only, with a salted memory-hard hash', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^scrypt\$/);
    expect(await hashPassword('correct horse')).not.toBe(hash);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('wrong horse', hash)).toBe(false);
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
  });
});

it('randomToken draws from the alphanumeric alphabet', () => {
  const token = randomToken(64);
  expect(token).toMatch(/^[A-Za-z0-9]{64}$/);
  expect(randomToken(64)).not.toBe(token);
});
