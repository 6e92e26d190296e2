import { contactSchema } from '@/lib/core/contacts/schemas';
import { SUBSCRIPTION_STATUSES } from '@/lib/core/lists/schemas';
import { pageQuerySchema } from '@/lib/core/shared/pagination';
import { z } from '@/lib/core/zod';

/**
 * Inputs and outputs of the segments API (marketing-api.md Part 2, Segments). The filter tree's
 * shape is checked here; its values against the account's attribute definitions by the compiler
 * (internal/compile-segment-filter.ts), which needs the database.
 */

export const MAX_FILTER_DEPTH = 5;
export const MAX_FILTER_CONDITIONS = 50;
/** Values of `in` / `not_in`: enough for a hand-picked set, not a way to ship a list of addresses. */
export const MAX_IN_VALUES = 100;
export const MAX_VALUE_LENGTH = 1000;

export const SEGMENT_OPS = [
  'eq',
  'neq',
  'in',
  'not_in',
  'gt',
  'gte',
  'lt',
  'lte',
  'contains',
  'starts_with',
  'ends_with',
  'exists',
  'not_exists',
] as const;
export type SegmentOp = (typeof SEGMENT_OPS)[number];

export const CONTACT_FIELDS = ['email', 'first_name', 'last_name', 'created_at', 'unsubscribed'] as const;
export const ENGAGEMENTS = ['received', 'opened', 'clicked', 'not_opened', 'not_clicked'] as const;
export type Engagement = (typeof ENGAGEMENTS)[number];
const ATTRIBUTE_FIELD = /^attributes\.([a-z][a-z0-9_]{0,62})$/;

export type FieldCondition = { field: string; op: SegmentOp; value?: unknown };
export type ListCondition = { list: string; status: (typeof SUBSCRIPTION_STATUSES)[number] };
export type EngagementCondition = { engagement: Engagement; within_days: number };
export type SegmentCondition = FieldCondition | ListCondition | EngagementCondition;
export type SegmentGroup = { all: SegmentNode[] } | { any: SegmentNode[] };
export type SegmentNode = SegmentGroup | SegmentCondition;
export type SegmentFilter = SegmentGroup;

/** The attribute key of `attributes.<key>`, or null for a contact field. */
export function attributeKeyOf(field: string): string | null {
  return ATTRIBUTE_FIELD.exec(field)?.[1] ?? null;
}

type Issue = { path: (string | number)[]; message: string };
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const oneOf = (values: readonly string[]) => values.join(', ');

function unknownKeys(node: Record<string, unknown>, allowed: string[]): string[] {
  return Object.keys(node).filter((key) => !allowed.includes(key));
}

/**
 * Walks the tree once: its shape, the depth and condition limits, and each leaf's keys. Returns the
 * normalised tree (`status` defaulted) or the first problem, with the path of the leaf it is about.
 */
function readNode(
  node: unknown,
  path: (string | number)[],
  depth: number,
  counter: { conditions: number },
): SegmentNode | Issue {
  if (!isObject(node)) return { path, message: 'must be a group ({"all": [...]} or {"any": [...]}) or a condition' };
  if ('all' in node || 'any' in node) {
    const kind = 'all' in node ? 'all' : 'any';
    const extra = unknownKeys(node, [kind]);
    if (extra.length) return { path, message: `a group holds only "all" or "any", not ${extra.join(', ')}` };
    if (depth > MAX_FILTER_DEPTH) return { path, message: `groups nest at most ${MAX_FILTER_DEPTH} levels` };
    const children = node[kind];
    if (!Array.isArray(children)) return { path: [...path, kind], message: 'must be an array of conditions or groups' };
    const read: SegmentNode[] = [];
    for (const [index, child] of children.entries()) {
      const result = readNode(child, [...path, kind, index], depth + 1, counter);
      if ('message' in result) return result;
      read.push(result);
    }
    return kind === 'all' ? { all: read } : { any: read };
  }
  counter.conditions += 1;
  if (counter.conditions > MAX_FILTER_CONDITIONS)
    return { path, message: `a filter holds at most ${MAX_FILTER_CONDITIONS} conditions` };
  if ('list' in node) {
    const extra = unknownKeys(node, ['list', 'status']);
    if (extra.length) return { path, message: `unknown field(s) ${extra.join(', ')}` };
    if (typeof node.list !== 'string' || !z.uuid().safeParse(node.list).success)
      return { path: [...path, 'list'], message: 'must be a list id' };
    const status = node.status ?? 'confirmed';
    if (typeof status !== 'string' || !(SUBSCRIPTION_STATUSES as readonly string[]).includes(status))
      return { path: [...path, 'status'], message: `must be one of ${oneOf(SUBSCRIPTION_STATUSES)}` };
    return { list: node.list.toLowerCase(), status: status as ListCondition['status'] };
  }
  if ('engagement' in node) {
    const extra = unknownKeys(node, ['engagement', 'within_days']);
    if (extra.length) return { path, message: `unknown field(s) ${extra.join(', ')}` };
    if (typeof node.engagement !== 'string' || !(ENGAGEMENTS as readonly string[]).includes(node.engagement))
      return { path: [...path, 'engagement'], message: `must be one of ${oneOf(ENGAGEMENTS)}` };
    const days = node.within_days;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > 365)
      return { path: [...path, 'within_days'], message: 'must be a whole number of days from 1 to 365' };
    return { engagement: node.engagement as Engagement, within_days: days };
  }
  if ('field' in node) {
    const extra = unknownKeys(node, ['field', 'op', 'value']);
    if (extra.length) return { path, message: `unknown field(s) ${extra.join(', ')}` };
    const field = node.field;
    if (typeof field !== 'string' || (!(CONTACT_FIELDS as readonly string[]).includes(field) && !attributeKeyOf(field)))
      return { path: [...path, 'field'], message: `must be one of ${oneOf(CONTACT_FIELDS)} or attributes.<key>` };
    if (typeof node.op !== 'string' || !(SEGMENT_OPS as readonly string[]).includes(node.op))
      return { path: [...path, 'op'], message: `must be one of ${oneOf(SEGMENT_OPS)}` };
    const op = node.op as SegmentOp;
    const takesValue = op !== 'exists' && op !== 'not_exists';
    if (takesValue && node.value === undefined) return { path: [...path, 'value'], message: `is required with ${op}` };
    if (!takesValue && node.value !== undefined)
      return { path: [...path, 'value'], message: `must be left out with ${op}` };
    return takesValue ? { field, op, value: node.value } : { field, op };
  }
  return { path, message: 'must be a group ("all" or "any") or a condition ("field", "list" or "engagement")' };
}

/** The root must be a group: a lone condition is written `{"all": [condition]}`. */
export const segmentFilterSchema = z
  .unknown()
  .transform((input, ctx): SegmentFilter => {
    if (input === undefined) {
      ctx.addIssue({ code: 'custom', message: 'is required' });
      return z.NEVER;
    }
    if (!isObject(input) || !('all' in input || 'any' in input)) {
      ctx.addIssue({ code: 'custom', message: 'must be a group: {"all": [...]} or {"any": [...]}' });
      return z.NEVER;
    }
    const result = readNode(input, [], 1, { conditions: 0 });
    if ('message' in result) {
      ctx.addIssue({ code: 'custom', path: result.path, message: result.message });
      return z.NEVER;
    }
    return result as SegmentFilter;
  })
  .openapi('SegmentFilter', {
    type: 'object',
    description:
      'A tree: {"all": [...]} or {"any": [...]} (groups nest up to 5 levels, 50 conditions in all). Leaves: ' +
      '{"field": F, "op": OP, "value": V} with F one of email, first_name, last_name, created_at, unsubscribed or ' +
      'attributes.<key>, OP one of eq, neq, in, not_in, gt, gte, lt, lte, contains, starts_with, ends_with, exists, ' +
      'not_exists, V in the type of the field (in/not_in: an array); {"list": LIST_ID, "status": S} (S default ' +
      'confirmed); {"engagement": received|opened|clicked|not_opened|not_clicked, "within_days": 1-365}. ' +
      'A problem is 400 naming the leaf, e.g. `filter.all.1.value: must be a number`.',
    example: {
      all: [
        { field: 'attributes.plan', op: 'eq', value: 'gold' },
        {
          any: [
            { engagement: 'opened', within_days: 30 },
            { field: 'created_at', op: 'gte', value: '2026-01-01T00:00:00Z' },
          ],
        },
      ],
    },
  });

const nameSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters');

export const createSegmentSchema = z
  .object({ name: nameSchema, filter: segmentFilterSchema })
  .openapi('CreateSegmentRequest');

export const updateSegmentSchema = z
  .object({ name: nameSchema.optional(), filter: segmentFilterSchema.optional() })
  .openapi('UpdateSegmentRequest');

export const previewSegmentSchema = z.object({ filter: segmentFilterSchema }).openapi('PreviewSegmentRequest');

export const segmentPathSchema = z.object({ segment_id: z.string() });
export const listSegmentsQuerySchema = pageQuerySchema;
export const segmentContactsQuerySchema = pageQuerySchema;

export const segmentSchema = z
  .object({
    object: z.literal('segment'),
    id: z.string().uuid(),
    name: z.string(),
    filter: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'The filter tree, as saved (see SegmentFilter).' }),
    count: z
      .number()
      .int()
      .nullable()
      .openapi({
        description:
          'Contacts matching as of `counted_at`: counted now by GET /segments/{id}, create and update; in the list, ' +
          'the count kept by the background recount (every SEGMENT_RECOUNT_SECONDS). Null until first counted.',
      }),
    counted_at: z.string().datetime().nullable().openapi({ description: 'When `count` was counted.' }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi('Segment');

export const segmentPreviewSchema = z
  .object({
    object: z.literal('segment_preview'),
    count: z.number().int(),
    contacts: z.array(contactSchema).openapi({ description: 'The first 10 matching contacts, newest first.' }),
  })
  .openapi('SegmentPreview');
