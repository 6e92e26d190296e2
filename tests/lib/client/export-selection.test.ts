import { describe, expect, test } from 'vitest';
import { exportSelectionOf } from '@/lib/client/export-selection';
import { segmentFilterSchema } from '@/lib/core/segments/schemas';

const definitions = [
  { key: 'age', type: 'number' },
  { key: 'vip', type: 'boolean' },
  { key: 'plan', type: 'string' },
] as Parameters<typeof exportSelectionOf>[1];
const EMPTY_CONTACT_FILTERS = { search: '', subscription: '', list_id: '', attribute: '', value: '' };
const LIST = '0192a3b4-0000-7000-8000-000000000001';

describe("the contacts page's filters as an export's selection", () => {
  test('no filter is every contact; a list alone is list_id', () => {
    expect(exportSelectionOf(EMPTY_CONTACT_FILTERS, definitions)).toEqual({});
    expect(exportSelectionOf({ ...EMPTY_CONTACT_FILTERS, list_id: LIST }, definitions)).toEqual({ list_id: LIST });
  });

  test('anything else is a segment filter the segment schema accepts, values typed as their attribute', () => {
    const selection = exportSelectionOf(
      { search: ' ada ', subscription: 'unsubscribed', list_id: LIST, attribute: 'age', value: '42' },
      definitions,
    ) as { filter: { all: unknown[] } };
    expect(selection.filter.all).toEqual([
      {
        any: [
          { field: 'email', op: 'contains', value: 'ada' },
          { field: 'first_name', op: 'contains', value: 'ada' },
          { field: 'last_name', op: 'contains', value: 'ada' },
        ],
      },
      { field: 'unsubscribed', op: 'eq', value: true },
      {
        any: ['unconfirmed', 'confirmed', 'unsubscribed', 'complained'].map((status) => ({ list: LIST, status })),
      },
      { field: 'attributes.age', op: 'eq', value: 42 },
    ]);
    expect(segmentFilterSchema.safeParse(selection.filter).success).toBe(true);
    const vip = exportSelectionOf({ ...EMPTY_CONTACT_FILTERS, attribute: 'vip', value: 'true' }, definitions) as {
      filter: { all: { value: unknown }[] };
    };
    expect(vip.filter.all[0].value).toBe(true);
  });
});
