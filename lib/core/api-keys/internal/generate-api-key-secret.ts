import { randomToken, sha256Hex } from '@/lib/shared/crypto';

// The AhaSend formats, so that clients which check a key's shape locally accept ours.
export const SECRET_KEY_PREFIX = 'aha-sk-';
const PUBLIC_KEY_PREFIX = 'aha-pk-';

export function generateApiKeySecret() {
  const secret = SECRET_KEY_PREFIX + randomToken(64);
  return { secret, secretHash: sha256Hex(secret), publicKey: PUBLIC_KEY_PREFIX + randomToken(32) };
}

export function hashApiKeySecret(secret: string): string {
  return sha256Hex(secret);
}
