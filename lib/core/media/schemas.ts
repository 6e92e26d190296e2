import { pageQuerySchema } from '@/lib/core/shared/pagination';
import { z } from '@/lib/core/zod';
import { MAX_NAME_CHARS } from './internal/media-name';

/** Inputs and outputs of the media library API (images for mail), shared with the dashboard. */

/** One file: far above any image a mail should carry, small enough to hold whole while it is checked. */
export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;
/** Room for the multipart framing around a file at the limit, so that the 413 names the file's size. */
export const MAX_MEDIA_REQUEST_BYTES = MAX_MEDIA_BYTES + 64 * 1024;
/** Types the upload may declare; the content decides what the file is. */
export const MEDIA_UPLOAD_TYPES = [
  'multipart/form-data',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/octet-stream',
];

const isByteStream = (value: unknown): value is AsyncIterable<Uint8Array> =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';

export const uploadMediaQuerySchema = z.object({
  name: z
    .string({ error: 'must be a string' })
    .max(1000, 'must be at most 1000 characters')
    .optional()
    .openapi({
      description: `The name shown in the library (display only; folders, control characters and more than ${MAX_NAME_CHARS} characters are dropped). Without it, the multipart file name.`,
    }),
});

/** The verb's input: the query, plus the upload as the entry point hands it on (unread). */
export const uploadMediaSchema = uploadMediaQuerySchema.extend({
  content_type: z.string().nullish(),
  declared_bytes: z.number().nullish(),
  body: z.custom<AsyncIterable<Uint8Array>>(isByteStream, { error: 'the upload is missing' }),
});

export type UploadMediaInput = z.output<typeof uploadMediaSchema>;

export const mediaPathSchema = z.object({ media_id: z.string({ error: 'must be a string' }) });

export const listMediaQuerySchema = pageQuerySchema;

export const mediaSchema = z
  .object({
    object: z.literal('media'),
    id: z.string().uuid(),
    name: z.string().openapi({ description: 'For display only: the served URL never contains it.' }),
    content_type: z
      .enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])
      .openapi({ description: 'Detected from the content, whatever the upload declared.' }),
    size_bytes: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
    url: z.string().openapi({
      description: 'Public, without credentials (it appears in mail): PUBLIC_URL + /media/{id}.{extension}.',
    }),
    created_at: z.string().datetime(),
  })
  .openapi('Media');
