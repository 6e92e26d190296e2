import { z } from '@/lib/core/zod';

export const createV1KeySchema = z.object({
  label: z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
});
