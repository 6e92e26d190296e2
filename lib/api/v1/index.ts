import { sendV1Message, sendV1MessageSchema } from '@/lib/core/messages/send-v1-message';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';
import { SEND_BODY_LIMIT } from '../v2/messages';

/** The legacy v1 API: one endpoint, in maintenance (see service-spec.md, Versioning). */
export const v1Endpoints: Endpoint[] = [
  {
    method: 'post',
    path: '/v1/email/send',
    verb: sendV1Message,
    status: 201,
    summary: 'Send (legacy v1)',
    tags: ['v1'],
    body: sendV1MessageSchema,
    response: z.object({
      success_count: z.number(),
      fail_count: z.number(),
      failed_recipients: z.array(z.string()),
      errors: z.array(z.string()),
    }),
    input: ({ body }) => body,
    bodyLimit: SEND_BODY_LIMIT,
    isHiddenFromDocument: true,
  },
];
