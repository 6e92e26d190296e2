import { createPrivateKey, type KeyObject } from 'node:crypto';
import DKIM from 'nodemailer/lib/dkim';

const parsedKeys = new Map<string, KeyObject>();

/** Keys are decrypted and parsed once per process (by key id), not per message. */
export function cachedPrivateKey(keyId: string, decryptPem: () => string): KeyObject {
  let key = parsedKeys.get(keyId);
  if (!key) {
    key = createPrivateKey(decryptPem());
    parsedKeys.set(keyId, key);
  }
  return key;
}

/** Prepends a DKIM-Signature (relaxed/relaxed, rsa-sha256) for the sender domain to the message. */
export async function signDkim(raw: Buffer, options: { domain: string; selector: string; privateKey: KeyObject }): Promise<Buffer> {
  const signer = new DKIM({ domainName: options.domain, keySelector: options.selector, privateKey: options.privateKey as never, cacheDir: false });
  const stream = signer.sign(raw);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
