import { createPrivateKey, type KeyObject } from 'node:crypto';
import { once } from 'node:events';
import DKIM from 'nodemailer/lib/dkim';
import MessageParser from 'nodemailer/lib/dkim/message-parser';
import RelaxedBody from 'nodemailer/lib/dkim/relaxed-body';
import sign from 'nodemailer/lib/dkim/sign';

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
  'From',
  'Sender',
  'Reply-To',
  'Subject',
  'Date',
  'Message-ID',
  'To',
  'Cc',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'Content-ID',
  'Content-Description',
  'Resent-Date',
  'Resent-From',
  'Resent-Sender',
  'Resent-To',
  'Resent-Cc',
  'Resent-Message-ID',
  'In-Reply-To',
  'References',
  'List-Id',
  'List-Help',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
  'List-Subscribe',
  'List-Post',
  'List-Owner',
  'List-Archive',
].join(':');

export type DkimSigningOptions = { domain: string; selector: string; key: DkimKey };

/** Prepends a DKIM-Signature (relaxed/relaxed, rsa-sha256) for the sender domain to the message. */
export async function signDkim(raw: Buffer, options: DkimSigningOptions): Promise<Buffer> {
  const signer = new DKIM({
    domainName: options.domain,
    keySelector: options.selector,
    privateKey: parsedKey(options.key) as never,
    cacheDir: false,
    headerFieldNames: SIGNED_HEADERS,
  });
  const stream = signer.sign(raw);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The relaxed body hash (the signature's bh=) of a body many messages share, computed once for all
 * of them: `body` is what follows the blank line that ends the headers.
 */
export async function dkimBodyHash(body: Uint8Array): Promise<string> {
  const hasher = new RelaxedBody({ hashAlgo: 'sha256' });
  const hashed = once(hasher, 'hash');
  hasher.resume();
  hasher.end(body);
  const [hash] = await hashed;
  return hash as string;
}

// parseHeaders reads only rawHeaders, and each call runs to its end: one parser serves every message.
const headerParser = new MessageParser();

/**
 * The DKIM-Signature header line (without its line break) for a message whose body hash is known:
 * only the headers are canonicalized and signed, the same bytes signDkim would produce. `head` is
 * the header block, without the blank line after it.
 */
export function signDkimHead(head: string, bodyHash: string, options: DkimSigningOptions): string {
  headerParser.rawHeaders = Buffer.from(head, 'utf8');
  const signature = sign(headerParser.parseHeaders(), 'sha256', bodyHash, {
    domainName: options.domain,
    keySelector: options.selector,
    privateKey: parsedKey(options.key),
    headerFieldNames: SIGNED_HEADERS,
  });
  // nodemailer's streaming signer leaves a message unsigned when the key fails; this one refuses.
  if (!signature) throw new Error(`the DKIM key ${options.key.id} could not sign`);
  return signature;
}
