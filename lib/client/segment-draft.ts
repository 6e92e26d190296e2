import type { AttributeType } from '@/lib/core/contacts/attribute-values';
import type { Engagement, SegmentFilter, SegmentNode, SegmentOp } from '@/lib/core/segments/schemas';

/**
 * The segment builder's editing state: the filter tree with the text the inputs hold, each node
 * keyed for React. `toFilter` turns it into the API's tree; `fromFilter` reads a saved one back.
 */
export type DraftFieldCondition = { key: string; kind: 'field'; field: string; op: SegmentOp; value: string };
export type DraftCondition =
  | DraftFieldCondition
  | { key: string; kind: 'list'; list: string; status: string }
  | { key: string; kind: 'engagement'; engagement: Engagement; days: string };
export type DraftGroup = { key: string; kind: 'group'; match: 'all' | 'any'; children: DraftNode[] };
export type DraftNode = DraftCondition | DraftGroup;

export const MAX_DEPTH = 5;
export const MAX_CONDITIONS = 50;

let counter = 0;
export const nextKey = () => `n${++counter}`;

export const FIELD_TYPES: Record<string, AttributeType> = {
  email: 'string',
  first_name: 'string',
  last_name: 'string',
  created_at: 'datetime',
  unsubscribed: 'boolean',
};
export const FIELD_LABELS: Record<string, string> = {
  email: 'Email',
  first_name: 'First name',
  last_name: 'Last name',
  created_at: 'Added on',
  unsubscribed: 'Unsubscribed',
};

const COMPARE: SegmentOp[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'exists', 'not_exists'];
export const OPS_FOR_TYPE: Record<AttributeType, SegmentOp[]> = {
  string: ['eq', 'neq', 'contains', 'starts_with', 'ends_with', 'in', 'not_in', 'exists', 'not_exists'],
  number: COMPARE,
  date: COMPARE,
  datetime: COMPARE.filter((op) => op !== 'in' && op !== 'not_in'),
  boolean: ['eq', 'exists', 'not_exists'],
};

/** Words a Mailchimp user reads, per type: dates are before and after, numbers greater and less. */
export function opLabel(op: SegmentOp, type: AttributeType): string {
  const isTime = type === 'date' || type === 'datetime';
  const labels: Record<SegmentOp, string> = {
    eq: 'is',
    neq: 'is not',
    in: 'is one of',
    not_in: 'is none of',
    gt: isTime ? 'is after' : 'is greater than',
    gte: isTime ? 'is on or after' : 'is at least',
    lt: isTime ? 'is before' : 'is less than',
    lte: isTime ? 'is on or before' : 'is at most',
    contains: 'contains',
    starts_with: 'starts with',
    ends_with: 'ends with',
    exists: 'is set',
    not_exists: 'is not set',
  };
  return labels[op];
}

export const ENGAGEMENT_LABELS: Record<Engagement, string> = {
  received: 'received a campaign',
  opened: 'opened a campaign',
  clicked: 'clicked in a campaign',
  not_opened: 'did not open any campaign',
  not_clicked: 'did not click in any campaign',
};

export const newCondition = (field = 'email'): DraftFieldCondition => ({
  key: nextKey(),
  kind: 'field',
  field,
  op: field === 'unsubscribed' ? 'eq' : 'contains',
  value: field === 'unsubscribed' ? 'false' : '',
});
export const newGroup = (match: 'all' | 'any' = 'all', children: DraftNode[] = []): DraftGroup => ({
  key: nextKey(),
  kind: 'group',
  match,
  children,
});

export function countConditions(node: DraftNode): number {
  return node.kind === 'group' ? node.children.reduce((sum, child) => sum + countConditions(child), 0) : 1;
}

/** A value as the API wants it, or undefined while the input cannot be one yet (the builder waits). */
function typedValue(type: AttributeType, text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  switch (type) {
    case 'number':
      return Number.isFinite(Number(trimmed)) ? Number(trimmed) : undefined;
    case 'boolean':
      return trimmed === 'true' ? true : trimmed === 'false' ? false : undefined;
    case 'datetime': {
      const time = new Date(trimmed);
      return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
    }
    default:
      return text;
  }
}

/** The API's leaf, or null while the row is incomplete. */
function conditionToLeaf(condition: DraftCondition, types: Record<string, AttributeType>): SegmentNode | null {
  if (condition.kind === 'list')
    return condition.list ? { list: condition.list, status: condition.status as 'confirmed' } : null;
  if (condition.kind === 'engagement') {
    const days = Number(condition.days);
    return Number.isInteger(days) && days >= 1 && days <= 365
      ? { engagement: condition.engagement, within_days: days }
      : null;
  }
  const type = types[condition.field] ?? 'string';
  if (condition.op === 'exists' || condition.op === 'not_exists') return { field: condition.field, op: condition.op };
  if (condition.op === 'in' || condition.op === 'not_in') {
    const values = condition.value
      .split(',')
      .map((item) => typedValue(type, item))
      .filter((item) => item !== undefined);
    return values.length ? { field: condition.field, op: condition.op, value: values } : null;
  }
  const value = typedValue(type, condition.value);
  return value === undefined ? null : { field: condition.field, op: condition.op, value };
}

/** The API's tree without the incomplete rows, and how many were left out. */
export function toFilter(
  root: DraftGroup,
  types: Record<string, AttributeType>,
): { filter: SegmentFilter; incomplete: number } {
  let incomplete = 0;
  const walk = (group: DraftGroup): SegmentFilter => {
    const children: SegmentNode[] = [];
    for (const child of group.children) {
      if (child.kind === 'group') children.push(walk(child));
      else {
        const leaf = conditionToLeaf(child, types);
        if (leaf) children.push(leaf);
        else incomplete += 1;
      }
    }
    return group.match === 'all' ? { all: children } : { any: children };
  };
  return { filter: walk(root), incomplete };
}

/** Text for an input from a stored value: datetimes in the browser's local time, as datetime-local shows them. */
function valueText(type: AttributeType, value: unknown): string {
  if (Array.isArray(value)) return value.map((item) => valueText(type, item)).join(', ');
  if (type === 'datetime' && typeof value === 'string') {
    const time = new Date(value);
    const local = new Date(time.getTime() - time.getTimezoneOffset() * 60_000);
    return Number.isNaN(time.getTime()) ? value : local.toISOString().slice(0, 16);
  }
  return value === undefined || value === null ? '' : String(value);
}

export function fromFilter(filter: SegmentFilter, types: Record<string, AttributeType>): DraftGroup {
  const read = (node: SegmentNode): DraftNode => {
    if ('all' in node) return newGroup('all', node.all.map(read));
    if ('any' in node) return newGroup('any', node.any.map(read));
    if ('list' in node) return { key: nextKey(), kind: 'list', list: node.list, status: node.status };
    if ('engagement' in node)
      return { key: nextKey(), kind: 'engagement', engagement: node.engagement, days: String(node.within_days) };
    return {
      key: nextKey(),
      kind: 'field',
      field: node.field,
      op: node.op,
      value: valueText(types[node.field] ?? 'string', node.value),
    };
  };
  return read(filter) as DraftGroup;
}
