import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomInt,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: object,
) => Promise<Buffer>;

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Uniformly random alphanumeric string (no modulo bias). */
export function randomToken(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

export function sha256Hex(input: string | Buffer): string {
  return createHash('sha256').update(input).digest('hex');
}

export function hmacSha256(key: Buffer | string, data: string | Buffer): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

// Human passwords: scrypt is memory-hard and built into Node (16 MiB per hash with these parameters).
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** The stored "hash" of a person who has no password (made by single sign-on): it matches nothing. */
export const NO_PASSWORD_HASH = 'none';

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password.normalize('NFKC'), salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  // As long as a real check, so that the answer's time does not tell who has no password.
  if (stored === NO_PASSWORD_HASH) return hashPassword(password).then(() => false);
  const [scheme, n, r, p, saltText, hashText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, 'base64');
  const actual = await scryptAsync(password.normalize('NFKC'), Buffer.from(saltText, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Encryption of secrets that must be read back later (DKIM keys, webhook secrets, replayable API-key
 * responses). One master key; a key per purpose derived with HKDF; AES-256-GCM; the ciphertext names
 * its format version so that the scheme can change without breaking stored rows.
 */
export class SecretBox {
  private readonly keys = new Map<string, Buffer>();

  constructor(private readonly masterKey: Buffer) {
    if (masterKey.length < 32) throw new Error('master key must be at least 32 bytes');
  }

  /** A key for a purpose whose consumer does its own cryptography (e.g. the dashboard's session tokens). */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(this.keyFor(`derived:${purpose}`));
  }

  private keyFor(purpose: string): Buffer {
    let key = this.keys.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', this.masterKey, Buffer.alloc(0), `mailstead:${purpose}`, 32));
      this.keys.set(purpose, key);
    }
    return key;
  }

  encrypt(purpose: string, plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keyFor(purpose), iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
      '.',
    );
  }

  decrypt(purpose: string, ciphertext: string): string {
    const [version, iv, tag, body] = ciphertext.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown ciphertext format');
    const decipher = createDecipheriv('aes-256-gcm', this.keyFor(purpose), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Stored in the database: a process started with another master key sees a different value and stops. */
  fingerprint(): string {
    return hmacSha256(this.keyFor('fingerprint'), 'mailstead-master-key-fingerprint').toString('hex').slice(0, 32);
  }
}
