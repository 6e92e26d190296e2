import { z } from '@/lib/core/zod';

export const createV1KeySchema = z.object({ label: z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters') });

export const v1KeySchema = z.object({
  object: z.literal('v1_key'),
  id: z.string().uuid(),
  account_id: z.string().uuid(),
  label: z.string(),
  hint: z.string(),
  last_used_at: z.string().nullable(),
  created_at: z.string(),
});
