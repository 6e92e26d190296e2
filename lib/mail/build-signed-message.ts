import { buildMime, type MessageToBuild } from '@/lib/core/messages/build-mime';
import type { RenderedParts } from '@/lib/core/messages/render-content';
import type { StructuredContent } from '@/lib/db/schema';
import { signDkim, signDkimHead, type DkimKey } from './sign-dkim';

/**
 * A message made from an encoding its recipients share: its own header block (without the blank
 * line after it), the shared body, and that body's DKIM hash, computed once for all of them.
 */
export type PersonalizedMime = { head: string; body: Uint8Array; bodyHash: string };

/**
 * What a message's bytes are made from: bytes already made (raw content), a shared encoding
 * personalised for its recipient, or parts to compose, rendered and with tracking applied. Plain
 * data, so that it can cross to a worker thread.
 */
export type MessageSource =
  | { raw: Uint8Array }
  | { personalized: PersonalizedMime }
  | { compose: { content: StructuredContent; parts: RenderedParts | null; message: MessageToBuild } };
export type DkimSigning = { domain: string; selector: string; key: DkimKey };
export type SignedMessage = { raw: Uint8Array } | { failure: string };

/**
 * The CPU-heavy end of a delivery: compose the MIME (when not made yet) and sign it with DKIM. Runs
 * on the event loop or in a mail thread (mail-builder.ts). A message that cannot be composed is a
 * failure of that message; a signing error is thrown (an internal error, retried).
 */
export async function buildSignedMessage(source: MessageSource, dkim: DkimSigning): Promise<SignedMessage> {
  if ('personalized' in source)
    return {
      raw: withSignature(
        signDkimHead(source.personalized.head, source.personalized.bodyHash, dkim),
        source.personalized,
      ),
    };
  let raw: Buffer;
  if ('raw' in source) raw = Buffer.from(source.raw.buffer, source.raw.byteOffset, source.raw.byteLength);
  else {
    try {
      raw = await buildMime(source.compose.content, source.compose.parts, source.compose.message);
    } catch (error) {
      return { failure: `the message could not be rendered: ${(error as Error).message}`.slice(0, 500) };
    }
  }
  return { raw: await signDkim(raw, dkim) };
}

/** The message's bytes: the signature line, its header block, the blank line, the shared body. */
export function withSignature(signature: string, mime: PersonalizedMime): Buffer {
  return Buffer.concat([Buffer.from(`${signature}\r\n${mime.head}\r\n\r\n`, 'utf8'), mime.body]);
}
