import { describe, expect, it } from 'vitest';
import { detectImage } from '@/lib/core/media/internal/detect-image';
import { sanitizeMediaName } from '@/lib/core/media/internal/media-name';
import { HOSTILE_FILES, IMAGES, WEBP_EXTENDED, WEBP_LOSSLESS } from '../../../../e2e/support/media-fixtures';

describe('detectImage', () => {
  it.each([
    ['png', IMAGES.png, 'image/png'],
    ['jpg', IMAGES.jpg, 'image/jpeg'],
    ['gif', IMAGES.gif, 'image/gif'],
    ['webp', IMAGES.webp, 'image/webp'],
    ['webp', WEBP_LOSSLESS, 'image/webp'],
    ['webp', WEBP_EXTENDED, 'image/webp'],
  ])('reads a %s from its bytes, with its dimensions (%#)', (extension, bytes, contentType) => {
    expect(detectImage(bytes)).toEqual({ ok: true, image: { contentType, extension, width: 3, height: 2 } });
  });

  it.each(HOSTILE_FILES.map((file) => [file.title, file] as const))('refuses %s', (_title, file) => {
    const detection = detectImage(file.bytes);
    expect(detection.ok).toBe(false);
    expect(!detection.ok && detection.reason).toMatch(file.refusal);
  });

  it('refuses an empty file and a JPEG cut short', () => {
    expect(detectImage(Buffer.alloc(0))).toEqual({ ok: false, reason: 'the file is empty' });
    expect(detectImage(IMAGES.jpg.subarray(0, 100)).ok).toBe(false);
  });

  it('refuses a PNG that claims 0 pixels', () => {
    const zero = Buffer.from(IMAGES.png);
    zero.writeUInt32BE(0, 16);
    expect(detectImage(zero)).toMatchObject({ ok: false, reason: expect.stringMatching(/dimensions \(0x2\)/) });
  });
});

describe('sanitizeMediaName', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\windows\\win.ini', 'win.ini'],
    ['/abs/path/logo.png', 'logo.png'],
    ['..', 'fallback.png'],
    ['.hidden.png', 'hidden.png'],
    ['a\u0000b\u202Ec\r\nd.png', 'abcd.png'],
    ['  spaced \t name.png ', 'spaced name.png'],
    ['', 'fallback.png'],
    [null, 'fallback.png'],
  ])('%j is shown as %j', (raw, shown) => {
    expect(sanitizeMediaName(raw, 'fallback.png')).toBe(shown);
  });

  it('keeps at most 200 characters', () => {
    expect(sanitizeMediaName(`${'é'.repeat(500)}.png`, 'x')).toBe('é'.repeat(200));
  });
});
