/**
 * Small images of each accepted type (3x2 pixels, made with sharp) and hostile files that look
 * like them, for the media library's tests (e2e and unit).
 */
const bytes = (base64: string) => Buffer.from(base64, 'base64');

export const IMAGES = {
  png: bytes(
    'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAYAAACddGYaAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWM4oRH1H4YZkDkAr9MNt4ytl5oAAAAASUVORK5CYII=',
  ),
  jpg: bytes(
    '/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAACAAMDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAAAgf/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCSAFV3/9k=',
  ),
  gif: bytes('R0lGODlhAwACAIAAAExpccgoWiH5BAUAAAAALAAAAAADAAIAAAICjF8AOw=='),
  webp: bytes('UklGRjQAAABXRUJQVlA4ICgAAABwAQCdASoDAAIAAUAmJaACdAFAAAD+77zxU/+4OP/7g4//uDj90wAA'),
} as const;

/** The other two WebP layouts: lossless (VP8L) and extended with alpha (VP8X). */
export const WEBP_LOSSLESS = bytes('UklGRh4AAABXRUJQVlA4TBEAAAAvAkAAAAdQlCJXq/+BiOh/AAA=');
export const WEBP_EXTENDED = bytes(
  'UklGRlYAAABXRUJQVlA4WAoAAAAQAAAAAgAAAQAAQUxQSAcAAAAAgICAgICAAFZQOCAoAAAAcAEAnQEqAwACAAFAJiWgAnQBQAAA/u+88VP/uDj/+4OP/7g4/dMAAA==',
);

/** A 64x48 PNG, big enough to see in the dashboard's screenshots. */
export const LARGER_PNG = bytes(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAfUlEQVRoge2SAQkAURSDFsLYF8xYF2M8/sAAOhY+T5O6AQuwviK7kHdJ3YAFWF+RXci7pG7AAqyvyC7kXVI3YAHWV2QX8i6pG7AA6yuyC3mX1A1YgPUV2YW8S+oGLMD6iuxC3iV1AxZgfUV2Ie+SugELsL4iu5B3Sd2AxwN+mLLg8VuXJUIAAAAASUVORK5CYII=',
);

export const CONTENT_TYPES = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' } as const;

/** Files that must be refused, each with a word the refusal names. */
export const HOSTILE_FILES: { title: string; bytes: Buffer; refusal: RegExp }[] = [
  {
    title: 'SVG with a script',
    bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    refusal: /SVG is refused/,
  },
  {
    title: 'SVG after an XML declaration and a byte order mark',
    bytes: Buffer.from('\uFEFF<?xml version="1.0"?>\n<!-- x -->\n<svg onload="alert(1)"/>'),
    refusal: /SVG is refused/,
  },
  {
    title: 'HTML renamed .png',
    bytes: Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>'),
    refusal: /not a PNG, JPEG, GIF or WebP image/,
  },
  {
    title: 'script after the end of a PNG',
    bytes: Buffer.concat([IMAGES.png, Buffer.from('<script>alert(1)</script>')]),
    refusal: /does not end where its structure says/,
  },
  {
    title: 'GIF/JavaScript polyglot (GIF header, script, GIF trailer)',
    bytes: Buffer.concat([IMAGES.gif.subarray(0, -1), Buffer.from('*/=1;alert(1);<script>x</script>;')]),
    refusal: /HTML or script/,
  },
  {
    title: 'event handler hidden in a PNG text chunk',
    bytes: withPngTextChunk(IMAGES.png, 'Comment\0<img src=x onerror=alert(1)>'),
    refusal: /HTML or script/,
  },
  {
    title: 'PNG signature and nothing else',
    bytes: IMAGES.png.subarray(0, 8),
    refusal: /not a complete one/,
  },
  { title: 'plain text', bytes: Buffer.from('just some text'), refusal: /not a PNG, JPEG, GIF or WebP image/ },
];

/** A PNG with a tEXt chunk put after IHDR (its CRC is not checked by anyone who reads the size). */
function withPngTextChunk(png: Buffer, text: string): Buffer {
  const data = Buffer.from(text, 'latin1');
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  data.copy(chunk, 8);
  const ihdrEnd = 8 + 12 + 13;
  return Buffer.concat([png.subarray(0, ihdrEnd), chunk, png.subarray(ihdrEnd)]);
}
