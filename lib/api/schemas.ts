import { z } from '@/lib/core/zod';

export const successResponseSchema = z.object({ message: z.string() }).openapi('SuccessResponse');
