import { pageQuerySchema, type Page } from '@/lib/core/shared/pagination';
import { createTemplate } from '@/lib/core/templates/create-template';
import { deleteTemplate } from '@/lib/core/templates/delete-template';
import { getTemplate } from '@/lib/core/templates/get-template';
import { getTemplateVersion } from '@/lib/core/templates/get-template-version';
import { listTemplateVersions } from '@/lib/core/templates/list-template-versions';
import { listTemplates } from '@/lib/core/templates/list-templates';
import { preflightSchema } from '@/lib/core/preflight/checks';
import { preflightTemplate } from '@/lib/core/templates/preflight-template';
import { publishTemplate } from '@/lib/core/templates/publish-template';
import {
  createTemplateSchema,
  listTemplatesQuerySchema,
  templateSchema,
  templateVersionSchema,
  updateTemplateSchema,
} from '@/lib/core/templates/schemas';
import { updateTemplate } from '@/lib/core/templates/update-template';
import type { Endpoint } from '../endpoint';
import { listEnvelopeSchema, presentPage } from '../pagination';
import { successResponseSchema } from '../schemas';

/** Templates: drafts and immutable published versions (marketing-api.md, Templates). */
const collection = '/v2/accounts/{account_id}/templates' as const;
const item = `${collection}/{template_id}` as const;
const versions = `${item}/versions` as const;
const tags = ['Templates'];
// Room for all three parts at their limit (MAX_CONTENT_CHARS each), so that a part over its limit is a 400 naming it.
const BODY_LIMIT = 4 * 1024 * 1024;
const templateParams = ({ params }: { params: Record<string, string> }) => ({ template_id: params.template_id });

const SYNTAX =
  'subject, html_content and text_content are Jinja templates; one that does not compile is 400 naming the field and the line. With `format` markdown or blocks, `html_content` (and `text_content` unless given) is rendered from `markdown_content` or `blocks_content`; a source that cannot be rendered is 400 naming the field and the place.';
const BUSY =
  'Writes to one template are serialised; a write that keeps colliding with others after a few internal retries is 409 with `Retry-After` (seconds, at least 1). That 409 is never stored for an Idempotency-Key: retry with the same key.';

export const templateEndpoints = [
  {
    method: 'get',
    path: collection,
    verb: listTemplates,
    status: 200,
    summary: 'List templates',
    description: 'Newest first, cursor-paginated, filtered by `kind`. Deleted templates are left out.',
    tags,
    query: listTemplatesQuerySchema,
    response: listEnvelopeSchema(templateSchema, 'PaginatedTemplatesResponse'),
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'post',
    path: collection,
    verb: createTemplate,
    status: 201,
    summary: 'Create a template',
    description: `Creates the draft; nothing is sendable until it is published. \`kind\` defaults to transactional. Parts may be missing in a draft. ${SYNTAX} Idempotency-Key is supported.`,
    tags,
    body: createTemplateSchema,
    response: templateSchema,
    input: ({ body }) => body,
    idempotency: 'standard',
    bodyLimit: BODY_LIMIT,
  },
  {
    method: 'get',
    path: item,
    verb: getTemplate,
    status: 200,
    summary: 'Get a template',
    description: 'The draft and `latest_version` (null before the first publish).',
    tags,
    response: templateSchema,
    input: templateParams,
  },
  {
    method: 'put',
    path: item,
    verb: updateTemplate,
    status: 200,
    summary: 'Edit a template draft',
    description: `Partial: omitted fields stay; null or "" clears a part. Published versions never change. With \`revision\`, the edit is refused with 409 (no Retry-After) if the draft has moved on. ${SYNTAX} ${BUSY}`,
    tags,
    body: updateTemplateSchema,
    response: templateSchema,
    input: ({ body, params }) => ({ ...body, template_id: params.template_id }),
    bodyLimit: BODY_LIMIT,
  },
  {
    method: 'delete',
    path: item,
    verb: deleteTemplate,
    status: 200,
    summary: 'Delete a template',
    description: `The template is 404 from then on and can no longer be sent; mail already accepted is unaffected. ${BUSY}`,
    tags,
    response: successResponseSchema,
    input: templateParams,
  },
  {
    method: 'post',
    path: `${item}/publish` as const,
    verb: publishTemplate,
    status: 201,
    summary: 'Publish a template',
    description: `Freezes the draft as the next version (1, 2, ... without gaps) and answers with it. The draft needs a subject and an HTML or text body (400 otherwise). ${BUSY} Idempotency-Key is supported.`,
    tags,
    response: templateVersionSchema,
    input: templateParams,
    idempotency: 'standard',
  },
  {
    method: 'post',
    path: `${item}/preflight` as const,
    verb: preflightTemplate,
    status: 200,
    summary: "Preflight a template's draft",
    description:
      'The content checks on the draft, rendered with a sample contact: content, html_size, text_part, unsubscribe_link (campaign templates; the footer a campaign adds counts), links, images and spam_score. `status` is the worst check. Changes nothing.',
    tags,
    response: preflightSchema,
    input: templateParams,
  },
  {
    method: 'get',
    path: versions,
    verb: listTemplateVersions,
    status: 200,
    summary: "A template's published versions",
    description: 'Newest (highest version) first, cursor-paginated like every list.',
    tags,
    query: pageQuerySchema,
    response: listEnvelopeSchema(templateVersionSchema, 'PaginatedTemplateVersionsResponse'),
    input: ({ query, params }) => ({ ...query, template_id: params.template_id }),
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'get',
    path: `${versions}/{version}` as const,
    verb: getTemplateVersion,
    status: 200,
    summary: 'Get a published version',
    description: 'Exactly as it was published: versions are immutable.',
    tags,
    response: templateVersionSchema,
    input: ({ params }) => ({ template_id: params.template_id, version: params.version }),
  },
] satisfies Endpoint[];
