import { previewTemplate } from '@/lib/core/templates/preview-template';
import { previewTemplateSchema } from '@/lib/core/templates/schemas';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';

const anything = z.object({}).passthrough();
// Room for the three parts at their limits (as PUT …/templates allows) and the sample values.
const BODY_LIMIT = 4 * 1024 * 1024;

/**
 * The template editor's live preview (session only): the draft as typed, rendered by the same
 * workers and limits as a send. No v2 endpoint: the contract has none, and sending renders anyway.
 */
export const templateInternalEndpoints: Endpoint[] = [
  {
    method: 'post',
    path: '/internal/accounts/{account_id}/templates/preview',
    verb: previewTemplate,
    status: 200,
    summary: 'Render a subject, HTML and text with sample substitutions',
    tags: ['Internal'],
    body: previewTemplateSchema,
    response: anything,
    input: ({ body }) => body,
    bodyLimit: BODY_LIMIT,
    isHiddenFromDocument: true,
  },
];
