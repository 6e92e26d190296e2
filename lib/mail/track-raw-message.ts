import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Joiner, Rewriter, Splitter, type MimeNode } from '@zone-eu/mailsplit';

/** What tracking does to one HTML document: rewritten markup and the links it found, in order. */
export type TrackHtml = (html: string) => { html: string; links: string[] };

// Charsets in which ASCII markup is not ASCII bytes: their parts are left untracked.
const NOT_ASCII_COMPATIBLE = /^(utf-?16|utf-?32|ucs-?2|utf-?7|iso-?2022|hz-)/i;

/**
 * Applies tracking to the text/html parts of a submitted message (not attachments, not messages
 * forwarded inside it) and leaves every other byte as the client wrote it: headers, other parts,
 * boundaries. A rewritten part keeps its charset and its base64 or quoted-printable encoding;
 * a 7bit or 8bit one becomes quoted-printable, since rewritten links can make lines too long.
 */
export async function trackRawMessage(raw: Buffer, track: TrackHtml): Promise<{ raw: Buffer; links: string[] }> {
  const links: string[] = [];
  const rewriter = new Rewriter(
    (node: MimeNode) =>
      node.contentType === 'text/html' &&
      node.disposition !== 'attachment' &&
      !NOT_ASCII_COMPATIBLE.test(node.charset || ''),
  );
  rewriter.on(
    'node',
    ({
      node,
      decoder,
      encoder,
    }: {
      node: MimeNode;
      decoder: NodeJS.ReadableStream;
      encoder: NodeJS.WritableStream;
    }) => {
      const chunks: Buffer[] = [];
      decoder.on('data', (chunk: Buffer) => chunks.push(chunk));
      decoder.on('end', () => {
        // Bytes as latin1 characters, one for one: the markup matches, and every byte not rewritten
        // goes back unchanged, in whatever ASCII-compatible charset the part declares.
        const tracked = track(Buffer.concat(chunks).toString('latin1'));
        const decoding = new TextDecoder(charsetLabel(node.charset));
        for (const link of tracked.links) links.push(decoding.decode(Buffer.from(link, 'latin1')));
        encoder.end(Buffer.from(tracked.html, 'latin1'));
      });
    },
  );
  const output: Buffer[] = [];
  await pipeline(
    Readable.from([raw]),
    new Splitter({ ignoreEmbedded: true }),
    rewriter,
    new Joiner(),
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        output.push(chunk);
        callback();
      },
    }),
  );
  return { raw: Buffer.concat(output), links };
}

function charsetLabel(charset: string | false): string {
  try {
    return new TextDecoder(charset || 'utf-8').encoding;
  } catch {
    return 'utf-8';
  }
}
