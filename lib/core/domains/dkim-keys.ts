import { createPrivateKey, createPublicKey, generateKeyPair, randomInt } from 'node:crypto';
import { promisify } from 'node:util';
import { invalidInput } from '@/lib/shared/errors';

const generateKeyPairAsync = promisify(generateKeyPair);

export type DkimKeyMaterial = { privateKeyPem: string; publicKey: string; keyBits: number };

const SELECTOR_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh selector: `ms` and ten random characters, so that rotations never reuse a name. */
export function newDkimSelector(): string {
  let selector = 'ms';
  for (let i = 0; i < 10; i++) selector += SELECTOR_ALPHABET[randomInt(SELECTOR_ALPHABET.length)];
  return selector;
}

export async function generateDkimKey(bits = 2048): Promise<DkimKeyMaterial> {
  const { privateKey, publicKey } = await generateKeyPairAsync('rsa', { modulusLength: bits });
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    keyBits: bits,
  };
}

/** A partner's own key: an RSA private key of at least 1024 bits, in PEM. */
export function parseCustomerDkimKey(pem: string): DkimKeyMaterial {
  let key;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw invalidInput('dkim_private_key: is not a PEM-encoded private key', 'dkim_private_key');
  }
  if (key.asymmetricKeyType !== 'rsa') throw invalidInput('dkim_private_key: must be an RSA key', 'dkim_private_key');
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < 1024)
    throw invalidInput(
      `dkim_private_key: must be at least 1024 bits (got ${bits}); 2048 is recommended`,
      'dkim_private_key',
    );
  return {
    privateKeyPem: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: createPublicKey(key).export({ type: 'spki', format: 'der' }).toString('base64'),
    keyBits: bits,
  };
}

export const DKIM_KEY_PURPOSE = 'dkim-private-key';
