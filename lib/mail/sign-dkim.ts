import { createPrivateKey, type KeyObject } from 'node:crypto';
import DKIM from 'nodemailer/lib/dkim';

/** A DKIM key as it crosses to a mail thread: its id and its PEM (a KeyObject sent is parsed again on every message). */
export type DkimKey = { id: string; pem: string };

const decryptedKeys = new Map<string, DkimKey>();
const parsedKeys = new Map<string, KeyObject>();

/** Keys are decrypted once per process (by key id), not per message. */
export function cachedDkimKey(keyId: string, decryptPem: () => string): DkimKey {
  let key = decryptedKeys.get(keyId);
  if (!key) {
    key = { id: keyId, pem: decryptPem() };
    decryptedKeys.set(keyId, key);
  }
  return key;
}

/** ...and parsed once per thread: RSA signing with a fresh KeyObject first sets the key up. */
function parsedKey(key: DkimKey): KeyObject {
  let parsed = parsedKeys.get(key.id);
  if (!parsed) {
    parsed = createPrivateKey(key.pem);
    parsedKeys.set(key.id, parsed);
  }
  return parsed;
}

/**
 * The headers signed when present: nodemailer's default list (RFC 6376 5.4.1's) plus
 * List-Unsubscribe-Post, which RFC 8058 requires to be covered by the signature with List-Unsubscribe.
 */
const SIGNED_HEADERS = [
  'From', 'Sender', 'Reply-To', 'Subject', 'Date', 'Message-ID', 'To', 'Cc', 'MIME-Version', 'Content-Type', 'Content-Transfer-Encoding', 'Content-ID', 'Content-Description',
  'Resent-Date', 'Resent-From', 'Resent-Sender', 'Resent-To', 'Resent-Cc', 'Resent-Message-ID', 'In-Reply-To', 'References',
  'List-Id', 'List-Help', 'List-Unsubscribe', 'List-Unsubscribe-Post', 'List-Subscribe', 'List-Post', 'List-Owner', 'List-Archive',
].join(':');

/** Prepends a DKIM-Signature (relaxed/relaxed, rsa-sha256) for the sender domain to the message. */
export async function signDkim(raw: Buffer, options: { domain: string; selector: string; key: DkimKey }): Promise<Buffer> {
  const signer = new DKIM({ domainName: options.domain, keySelector: options.selector, privateKey: parsedKey(options.key) as never, cacheDir: false, headerFieldNames: SIGNED_HEADERS });
  const stream = signer.sign(raw);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
