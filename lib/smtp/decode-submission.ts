import { isUtf8 } from 'node:buffer';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Joiner, Rewriter, Splitter, type MimeNode } from '@zone-eu/mailsplit';

/**
 * A submitted message as the text we store and sign. Almost every client sends ASCII or UTF-8, kept
 * byte for byte. 8BITMIME also lets a client send a part in Latin-1 or any 8-bit charset: decoding
 * that as UTF-8 would replace its bytes, so such a message is downgraded the way an MTA downgrades
 * for a 7-bit hop (RFC 6152): its 7bit/8bit/binary parts become quoted-printable, which carries
 * every byte of the declared charset in ASCII. Raw 8-bit bytes left in header lines (not allowed
 * unencoded, but seen) are read as Latin-1 rather than lost.
 */
export async function decodeSubmission(raw: Buffer): Promise<string> {
  if (isUtf8(raw)) return raw.toString('utf8');
  const isLeafInEightBit = (node: MimeNode) =>
    !node.multipart &&
    !/^message\//i.test(node.contentType || '') &&
    !['base64', 'quoted-printable'].includes(node.encoding || '');
  const rewriter = new Rewriter(isLeafInEightBit);
  rewriter.on('node', ({ decoder, encoder }: { decoder: NodeJS.ReadableStream; encoder: NodeJS.WritableStream }) =>
    decoder.pipe(encoder),
  );
  const output: Buffer[] = [];
  let downgraded = raw;
  try {
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
    // The encoder ends its lines with LF alone: SMTP's are CRLF.
    downgraded = Buffer.from(Buffer.concat(output).toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
  } catch {
    // MIME the splitter cannot follow: its lines are read as below, as they came.
  }
  if (isUtf8(downgraded)) return downgraded.toString('utf8');
  return lines(downgraded)
    .map((line) => (isUtf8(line) ? line.toString('utf8') : line.toString('latin1')))
    .join('');
}

/** The buffer cut after each LF, the line endings kept. */
function lines(buffer: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = buffer.indexOf(10); at !== -1; at = buffer.indexOf(10, start)) {
    parts.push(buffer.subarray(start, at + 1));
    start = at + 1;
  }
  if (start < buffer.length) parts.push(buffer.subarray(start));
  return parts;
}
