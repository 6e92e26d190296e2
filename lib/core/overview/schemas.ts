import { z } from '@/lib/core/zod';

/** `today_from`: where the viewer's day began (their local midnight); UTC midnight when absent. */
export const accountOverviewQuerySchema = z.object({
  today_from: z.iso
    .datetime({ offset: true, error: 'must be an RFC 3339 timestamp, e.g. 2026-11-22T00:00:00+01:00' })
    .optional(),
});
