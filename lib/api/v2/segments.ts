import type { Page } from '@/lib/core/shared/pagination';
import { contactSchema } from '@/lib/core/contacts/schemas';
import { createSegment } from '@/lib/core/segments/create-segment';
import { deleteSegment } from '@/lib/core/segments/delete-segment';
import { getSegment } from '@/lib/core/segments/get-segment';
import { listSegmentContacts } from '@/lib/core/segments/list-segment-contacts';
import { listSegments } from '@/lib/core/segments/list-segments';
import { previewSegment } from '@/lib/core/segments/preview-segment';
import {
  createSegmentSchema,
  listSegmentsQuerySchema,
  previewSegmentSchema,
  segmentContactsQuerySchema,
  segmentPreviewSchema,
  segmentSchema,
  updateSegmentSchema,
} from '@/lib/core/segments/schemas';
import { updateSegment } from '@/lib/core/segments/update-segment';
import type { Endpoint } from '../endpoint';
import { listEnvelopeSchema, presentPage } from '../pagination';
import { successResponseSchema } from '../schemas';

/** Segments: saved filters over the account's contacts (marketing-api.md Part 2, Segments). */
const collection = '/v2/accounts/{account_id}/segments' as const;
const item = `${collection}/{segment_id}` as const;
const tags = ['Segments'];
const segmentParams = ({ params }: { params: Record<string, string> }) => ({ segment_id: params.segment_id });

const FILTER =
  'A leaf that does not fit the account (an undefined attribute, a value of the wrong type, an op the type lacks, a list of another account) is 400 naming the leaf, e.g. `filter.all.1.value: must be a number`.';

export const segmentEndpoints = [
  {
    method: 'get',
    path: collection,
    verb: listSegments,
    status: 200,
    summary: 'List segments',
    description: 'Newest first, cursor-paginated, each with `count`: the contacts matching it now.',
    tags,
    query: listSegmentsQuerySchema,
    response: listEnvelopeSchema(segmentSchema, 'PaginatedSegmentsResponse'),
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'post',
    path: collection,
    verb: createSegment,
    status: 201,
    summary: 'Create a segment',
    description: `Saves \`name\` and \`filter\`; answers with the Segment and its live \`count\`. ${FILTER}`,
    tags,
    body: createSegmentSchema,
    response: segmentSchema,
    input: ({ body }) => body,
  },
  {
    method: 'post',
    path: `${collection}/preview` as const,
    verb: previewSegment,
    status: 200,
    summary: 'Preview a filter',
    description: `\`count\` and the first 10 matching contacts (newest first), without saving anything. ${FILTER}`,
    tags,
    body: previewSegmentSchema,
    response: segmentPreviewSchema,
    input: ({ body }) => body,
  },
  {
    method: 'get',
    path: item,
    verb: getSegment,
    status: 200,
    summary: 'Get a segment',
    description: 'With `count`: the contacts matching it now.',
    tags,
    response: segmentSchema,
    input: segmentParams,
  },
  {
    method: 'put',
    path: item,
    verb: updateSegment,
    status: 200,
    summary: 'Update a segment',
    description: `Partial: omitted fields stay. A campaign already sending keeps the audience it froze. ${FILTER}`,
    tags,
    body: updateSegmentSchema,
    response: segmentSchema,
    input: ({ body, params }) => ({ ...body, segment_id: params.segment_id }),
  },
  {
    method: 'delete',
    path: item,
    verb: deleteSegment,
    status: 200,
    summary: 'Delete a segment',
    description:
      'Refused with 409 while a validating, scheduled, sending or paused campaign narrows or excludes with it. A draft that uses it is told when it is sent.',
    tags,
    response: successResponseSchema,
    input: segmentParams,
  },
  {
    method: 'get',
    path: `${item}/contacts` as const,
    verb: listSegmentContacts,
    status: 200,
    summary: "A segment's contacts",
    description: 'The contacts matching it now, newest first, cursor-paginated.',
    tags,
    query: segmentContactsQuerySchema,
    response: listEnvelopeSchema(contactSchema, 'PaginatedSegmentContactsResponse'),
    input: ({ query, params }) => ({ ...query, segment_id: params.segment_id }),
    present: (page: Page<unknown>) => presentPage(page),
  },
] satisfies Endpoint[];
