import { setApiKeySandbox } from '@/lib/core/api-keys/set-api-key-sandbox';
import { completeSetup } from '@/lib/core/setup/complete-setup';
import { completeSetupSchema } from '@/lib/core/setup/schemas';
import { getSetupStatus } from '@/lib/core/setup/get-setup-status';
import { getCurrentUser } from '@/lib/core/users/get-current-user';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';

const anything = z.object({}).passthrough();

/** Session-only operations of the dashboard that have no v2 endpoint. */
export const internalEndpoints: Endpoint[] = [
  { method: 'get', path: '/internal/setup', verb: getSetupStatus, status: 200, summary: 'First-run status', tags: ['Internal'], response: anything, isInternal: true, isAnonymous: true },
  {
    method: 'post',
    path: '/internal/setup',
    verb: completeSetup,
    status: 201,
    summary: 'First-run setup',
    tags: ['Internal'],
    body: completeSetupSchema,
    response: anything,
    input: ({ body }) => body,
    isInternal: true,
    isAnonymous: true,
  },
  {
    method: 'put',
    path: '/internal/accounts/{account_id}/api-keys/{key_id}/sandbox',
    verb: setApiKeySandbox,
    status: 200,
    summary: 'Turn sandbox mode of a key on or off',
    tags: ['Internal'],
    response: anything,
    input: ({ body, params }) => ({ ...body, key_id: params.key_id }),
    isInternal: true,
  },
  { method: 'get', path: '/internal/me', verb: getCurrentUser, status: 200, summary: 'The signed-in user', tags: ['Internal'], response: anything, isInternal: true },
];
