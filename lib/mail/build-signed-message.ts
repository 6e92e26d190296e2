import { buildMime, type MessageToBuild } from '@/lib/core/messages/build-mime';
import type { RenderedParts } from '@/lib/core/messages/render-content';
import type { StructuredContent } from '@/lib/db/schema';
import { signDkim, type DkimKey } from './sign-dkim';

/**
 * What a message's bytes are made from: bytes already made (raw content, or a shared encoding
 * personalised for its recipient), or parts to compose, rendered and with tracking applied. Plain
 * data, so that it can cross to a worker thread.
 */
export type MessageSource = { raw: Uint8Array } | { compose: { content: StructuredContent; parts: RenderedParts | null; message: MessageToBuild } };
export type DkimSigning = { domain: string; selector: string; key: DkimKey };
export type SignedMessage = { raw: Uint8Array } | { failure: string };

/**
 * The CPU-heavy end of a delivery: compose the MIME (when not made yet) and sign it with DKIM. Runs
 * on the event loop or in a mail thread (mail-builder.ts). A message that cannot be composed is a
 * failure of that message; a signing error is thrown (an internal error, retried).
 */
export async function buildSignedMessage(source: MessageSource, dkim: DkimSigning): Promise<SignedMessage> {
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
