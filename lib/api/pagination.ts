import type { Page } from '@/lib/core/shared/pagination';
import { z } from '@/lib/core/zod';

const paginationInfoSchema = z
  .object({ has_more: z.boolean(), next_cursor: z.string().optional(), previous_cursor: z.string().optional() })
  .openapi('PaginationInfo');

export function listEnvelopeSchema<T extends z.ZodType>(item: T, name: string) {
  return z.object({ object: z.literal('list'), data: z.array(item), pagination: paginationInfoSchema }).openapi(name);
}

/** The v2 list envelope; absent cursors are left out rather than sent as null. */
export function presentPage<T>(page: Page<T>) {
  return {
    object: 'list' as const,
    data: page.items,
    pagination: {
      has_more: page.hasMore,
      ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}),
      ...(page.previousCursor ? { previous_cursor: page.previousCursor } : {}),
    },
  };
}
