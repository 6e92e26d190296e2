import { completePasswordReset } from '@/lib/core/passwords/complete-password-reset';
import { inspectPasswordReset } from '@/lib/core/passwords/inspect-password-reset';
import { requestPasswordReset } from '@/lib/core/passwords/request-password-reset';
import {
  completePasswordResetSchema,
  inspectPasswordResetSchema,
  requestPasswordResetSchema,
} from '@/lib/core/passwords/schemas';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';

const anything = z.object({}).passthrough();

/**
 * "Forgot password?" and the reset link's page (/reset-password/TOKEN), before any session: the token
 * travels in the body, never in a URL the server logs. Same-origin only (authenticate.ts).
 */
export const passwordResetInternalEndpoints: Endpoint[] = [
  {
    method: 'post',
    path: '/internal/password-resets',
    verb: requestPasswordReset,
    status: 202,
    summary: 'Mail a reset link (the same answer whether or not the address is a user)',
    tags: ['Internal'],
    body: requestPasswordResetSchema,
    response: anything,
    input: ({ body }) => body,
    isHiddenFromDocument: true,
    isAnonymous: true,
  },
  {
    method: 'post',
    path: '/internal/password-resets/inspect',
    verb: inspectPasswordReset,
    status: 200,
    summary: 'Whose a reset link is, while it can be used',
    tags: ['Internal'],
    body: inspectPasswordResetSchema,
    response: anything,
    input: ({ body }) => body,
    isHiddenFromDocument: true,
    isAnonymous: true,
  },
  {
    method: 'post',
    path: '/internal/password-resets/complete',
    verb: completePasswordReset,
    status: 200,
    summary: 'Use a reset link: set the new password, end every session',
    tags: ['Internal'],
    body: completePasswordResetSchema,
    response: anything,
    input: ({ body }) => body,
    isHiddenFromDocument: true,
    isAnonymous: true,
  },
];
