import type { Context } from 'hono';
import { AppError, invalidInput } from '@/lib/shared/errors';
import { findUnstorableJson } from './storable-input';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

const RAW_BODY = 'rawBody';

/**
 * Headers of an answer refused for the body's declared length, sent before any of the body is
 * read: the connection closes after it, since reading a body we will not use would hold the answer
 * until the client had sent it all.
 */
const CLOSE_CONNECTION = { Connection: 'close' };

/** The body's declared length (Content-Length), or null when it has none (chunked). */
export function declaredLength(c: Context): number | null {
  const declared = Number(c.req.header('content-length') ?? NaN);
  return Number.isFinite(declared) ? declared : null;
}

/** The 413 for an upload whose Content-Length is over its limit, before a byte of it is read. */
export function refuseDeclaredOversizeUpload(c: Context, maxBytes: number): void {
  const declared = declaredLength(c);
  if (declared !== null && declared > maxBytes)
    throw new AppError(
      'too_large',
      `the upload is larger than the limit of ${formatBytes(maxBytes)}`,
      undefined,
      CLOSE_CONNECTION,
    );
}

/**
 * Reads the request body once, refusing it as soon as it passes `maxBytes`, and keeps the text for
 * idempotency hashing and JSON parsing.
 */
export async function readRawBody(c: Context, maxBytes: number): Promise<string> {
  const cached = c.get(RAW_BODY as never) as string | undefined;
  if (cached !== undefined) return cached;
  const tooLarge = (headers?: Record<string, string>) =>
    new AppError(
      'invalid_input',
      `request body is larger than the limit of ${formatBytes(maxBytes)}`,
      undefined,
      headers,
    );
  const declared = declaredLength(c);
  if (declared !== null && declared > maxBytes) throw tooLarge(CLOSE_CONNECTION);
  const stream = c.req.raw.body;
  let text = '';
  if (stream) {
    const reader = stream.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
    text = Buffer.concat(chunks).toString('utf8');
  }
  c.set(RAW_BODY as never, text as never);
  return text;
}

/**
 * The body read by `readRawBody` as a JSON object, or the 400 naming what is wrong with it: the
 * content type, the syntax, the shape, or a value the database cannot store (see storable-input.ts).
 * An empty body is `{}`, so that required fields are reported by name.
 */
export function parseJsonBody(c: Context, text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const contentType = c.req.header('content-type') ?? '';
  if (!/^application\/([a-z.+-]*\+)?json\b/i.test(contentType.trim())) {
    throw invalidInput(
      `Content-Type must be application/json (got ${contentType ? `"${contentType.slice(0, 80)}"` : 'none'})`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw invalidInput(`invalid request body: malformed JSON (${(error as Error).message.slice(0, 120)})`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidInput('invalid request body: expected a JSON object');
  // Right after parsing: V8's parser takes any depth, and nothing after it may see such a value.
  const unstorable = findUnstorableJson(body);
  if (unstorable) throw unstorable;
  return body as Record<string, unknown>;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}
