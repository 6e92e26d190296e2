import { type Page } from '@/lib/core/shared/pagination';
import { deleteMedia } from '@/lib/core/media/delete-media';
import { getMedia } from '@/lib/core/media/get-media';
import { listMedia } from '@/lib/core/media/list-media';
import {
  listMediaQuerySchema,
  MAX_MEDIA_REQUEST_BYTES,
  MEDIA_UPLOAD_TYPES,
  mediaSchema,
  uploadMediaQuerySchema,
} from '@/lib/core/media/schemas';
import { uploadMedia } from '@/lib/core/media/upload-media';
import type { Endpoint } from '../endpoint';
import { listEnvelopeSchema, presentPage } from '../pagination';
import { successResponseSchema } from '../schemas';

/** The media library: images for mail, served publicly at their `url` (docs/marketing.md, Media). */
const collection = '/v2/accounts/{account_id}/media' as const;
const item = `${collection}/{media_id}` as const;
const tags = ['Media'];
const mediaParams = ({ params }: { params: Record<string, string> }) => ({ media_id: params.media_id });

const uploadDescription = [
  'A multipart/form-data body with the image in a `file` field (and optionally `name`), or the image itself as the body.',
  'The type is read from the content, never from the name or Content-Type: PNG, JPEG, GIF or WebP; SVG is refused (it can carry script), and so is a file that is also something else (HTML or script inside or after the image).',
  "At most 5 MB per file (413), and the account's library holds at most MEDIA_QUOTA_MB in all (413 naming what is used).",
  'The name is for display only: folders, control characters and more than 200 characters are dropped; the URL uses the opaque id.',
].join(' ');

export const mediaEndpoints = [
  {
    method: 'get',
    path: collection,
    verb: listMedia,
    status: 200,
    summary: 'List the media library',
    description: 'Newest first, cursor-paginated like every list.',
    tags,
    query: listMediaQuerySchema,
    response: listEnvelopeSchema(mediaSchema, 'PaginatedMediaResponse'),
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
    isExtension: true,
  },
  {
    method: 'post',
    path: collection,
    verb: uploadMedia,
    status: 201,
    summary: 'Upload an image',
    tags,
    query: uploadMediaQuerySchema,
    response: mediaSchema,
    upload: { mediaTypes: MEDIA_UPLOAD_TYPES, description: uploadDescription, maxBytes: MAX_MEDIA_REQUEST_BYTES },
    input: ({ query, upload }) => ({
      ...query,
      content_type: upload?.contentType,
      declared_bytes: upload?.declaredBytes,
      body: upload?.stream,
    }),
    isExtension: true,
  },
  {
    method: 'get',
    path: item,
    verb: getMedia,
    status: 200,
    summary: "Get an image's details",
    tags,
    response: mediaSchema,
    input: mediaParams,
    isExtension: true,
  },
  {
    method: 'delete',
    path: item,
    verb: deleteMedia,
    status: 200,
    summary: 'Delete an image',
    description:
      'Its URL answers 404 from then on, also in mail already sent. The room it took in the quota is free again.',
    tags,
    response: successResponseSchema,
    input: mediaParams,
    isExtension: true,
  },
] satisfies Endpoint[];
