export const MAX_NAME_CHARS = 200;

/**
 * The name shown for a file: the last segment of what the client sent (no folders, `..` or
 * backslashes), without control or bidirectional formatting characters, at most 200 characters.
 * It is for display only: the served URL uses the opaque id, so no name ever reaches a path.
 */
export function sanitizeMediaName(raw: string | null | undefined, fallback: string): string {
  const lastSegment = (raw ?? '').split(/[/\\]/).pop() ?? '';
  const cleaned = lastSegment
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+/, '')
    .trim();
  const name = Array.from(cleaned).slice(0, MAX_NAME_CHARS).join('').trim();
  return name || fallback;
}
