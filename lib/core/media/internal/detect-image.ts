/**
 * What an uploaded file is, read from its bytes alone: the name and the declared Content-Type say
 * nothing we trust. Only PNG, JPEG, GIF and WebP are accepted, and only when the structure holds
 * (no bytes after the image's end, sizes that agree), so that a file is one thing, not two.
 */
export type DetectedImage = {
  contentType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  extension: 'png' | 'jpg' | 'gif' | 'webp';
  width: number;
  height: number;
};

export type Detection = { ok: true; image: DetectedImage } | { ok: false; reason: string };

export const ACCEPTED_FORMATS = 'PNG, JPEG, GIF or WebP';
const MAX_DIMENSION = 20_000;

/**
 * Markup a browser could run if it ever read the file as HTML. Serving with nosniff and a sandbox
 * CSP already stops that; refusing it is defence in depth. Patterns are long enough that compressed
 * image data does not match them by chance (XMP metadata, `<x:xmpmeta`, passes).
 */
const ACTIVE_MARKUP =
  /<(script|html|iframe|object|embed)\b|<!doctype\s+html|javascript:|\bon(load|error|click|mouseover|focus|begin|end)\s*=/i;

export function detectImage(bytes: Buffer): Detection {
  if (bytes.length === 0) return refuse('the file is empty');
  const detected = detectStructure(bytes);
  if (!detected.ok) return detected;
  const { width, height } = detected.image;
  if (width < 1 || height < 1 || width > MAX_DIMENSION || height > MAX_DIMENSION)
    return refuse(`the image's dimensions (${width}x${height}) are not between 1 and ${MAX_DIMENSION} pixels`);
  if (ACTIVE_MARKUP.test(bytes.toString('latin1')))
    return refuse(
      'the file carries HTML or script besides the image (a polyglot): export it again from an image editor',
    );
  return detected;
}

function detectStructure(bytes: Buffer): Detection {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return readPng(bytes);
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return readJpeg(bytes);
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return readGif(bytes);
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return readWebp(bytes);
  if (isSvg(bytes))
    return refuse(`SVG is refused: it can carry script. Convert it to ${ACCEPTED_FORMATS} (PNG keeps transparency)`);
  return refuse(
    `the file is not a ${ACCEPTED_FORMATS} image (the type is read from the content, whatever the name or Content-Type says)`,
  );
}

function readPng(bytes: Buffer): Detection {
  if (bytes.length < 33 || bytes.subarray(12, 16).toString('latin1') !== 'IHDR') return broken('PNG');
  // Walk the chunks to IEND: nothing may follow it.
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.subarray(offset + 4, offset + 8).toString('latin1');
    offset += 12 + length;
    if (type === 'IEND') {
      if (offset !== bytes.length) return trailing('PNG');
      return image('image/png', 'png', bytes.readUInt32BE(16), bytes.readUInt32BE(20));
    }
  }
  return broken('PNG');
}

const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function readJpeg(bytes: Buffer): Detection {
  if (bytes[bytes.length - 2] !== 0xff || bytes[bytes.length - 1] !== 0xd9) return trailing('JPEG');
  // Walk the header segments to the first frame header, which holds the dimensions.
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return broken('JPEG');
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const length = bytes.readUInt16BE(offset + 2);
    if (SOF_MARKERS.has(marker)) {
      if (offset + 9 > bytes.length) return broken('JPEG');
      return image('image/jpeg', 'jpg', bytes.readUInt16BE(offset + 7), bytes.readUInt16BE(offset + 5));
    }
    if (marker === 0xda || length < 2) return broken('JPEG');
    offset += 2 + length;
  }
  return broken('JPEG');
}

function readGif(bytes: Buffer): Detection {
  if (bytes.length < 14) return broken('GIF');
  if (bytes[bytes.length - 1] !== 0x3b) return trailing('GIF');
  return image('image/gif', 'gif', bytes.readUInt16LE(6), bytes.readUInt16LE(8));
}

function readWebp(bytes: Buffer): Detection {
  if (bytes.length < 30) return broken('WebP');
  const riffSize = bytes.readUInt32LE(4);
  if (riffSize + 8 !== bytes.length && riffSize + 9 !== bytes.length) return trailing('WebP');
  const chunk = bytes.subarray(12, 16).toString('latin1');
  if (chunk === 'VP8 ')
    return image('image/webp', 'webp', bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff);
  if (chunk === 'VP8L') {
    const [b0, b1, b2, b3] = bytes.subarray(21, 25);
    return image(
      'image/webp',
      'webp',
      1 + (((b1 & 0x3f) << 8) | b0),
      1 + (((b3 & 0x0f) << 10) | (b2 << 2) | (b1 >> 6)),
    );
  }
  if (chunk === 'VP8X') return image('image/webp', 'webp', 1 + bytes.readUIntLE(24, 3), 1 + bytes.readUIntLE(27, 3));
  return broken('WebP');
}

/** An XML or SVG document, possibly after a byte order mark, whitespace, a declaration or comments. */
function isSvg(bytes: Buffer): boolean {
  const text = bytes
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return text.startsWith('<') && /<svg[\s>/]/i.test(text);
}

const startsWith = (bytes: Buffer, signature: number[]) => signature.every((byte, index) => bytes[index] === byte);

const image = (
  contentType: DetectedImage['contentType'],
  extension: DetectedImage['extension'],
  width: number,
  height: number,
): Detection => ({ ok: true, image: { contentType, extension, width, height } });

const refuse = (reason: string): Detection => ({ ok: false, reason });
const broken = (format: string) => refuse(`the file starts like a ${format} image but is not a complete one`);
const trailing = (format: string) =>
  refuse(`the ${format} image does not end where its structure says it does (bytes before or after it are refused)`);
