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
export async function signDkim(raw: Buffer, options: { domain: string; selector: string; privateKey: KeyObject }): Promise<Buffer> {
  const signer = new DKIM({ domainName: options.domain, keySelector: options.selector, privateKey: options.privateKey as never, cacheDir: false, headerFieldNames: SIGNED_HEADERS });
  const stream = signer.sign(raw);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
