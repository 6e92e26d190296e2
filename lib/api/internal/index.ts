import { setApiKeySandbox } from '@/lib/core/api-keys/set-api-key-sandbox';
import { getDeliverabilitySettings } from '@/lib/core/deliverability-settings/get-deliverability-settings';
import { getMessage } from '@/lib/core/messages/get-message';
import { getMessageDetails } from '@/lib/core/messages/get-message-details';
import { listMessageEvents } from '@/lib/core/messages/list-message-events';
import { getAccountOverview } from '@/lib/core/overview/get-account-overview';
import { accountOverviewQuerySchema } from '@/lib/core/overview/schemas';
import { completeSetup } from '@/lib/core/setup/complete-setup';
import { createV1Key } from '@/lib/core/v1-keys/create-v1-key';
import { deleteV1Key } from '@/lib/core/v1-keys/delete-v1-key';
import { listV1Keys } from '@/lib/core/v1-keys/list-v1-keys';
import { createV1KeySchema } from '@/lib/core/v1-keys/schemas';
import { completeSetupSchema } from '@/lib/core/setup/schemas';
import { getSetupStatus } from '@/lib/core/setup/get-setup-status';
import { getCurrentUser } from '@/lib/core/users/get-current-user';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';
import { webhookInternalEndpoints } from './webhooks';
import { routeInternalEndpoints } from './routes';
import { smtpCredentialInternalEndpoints } from './smtp-credentials';
import { contactAttributeInternalEndpoints } from './contact-attributes';
import { contactInternalEndpoints } from './contacts';
import { templateInternalEndpoints } from './templates';
import { campaignInternalEndpoints } from './campaigns';
import { invitationInternalEndpoints } from './invitations';
import { subAccountInternalEndpoints } from './sub-accounts';
import { userSessionInternalEndpoints } from './user-sessions';
import { passwordResetInternalEndpoints } from './password-resets';
import { twoFactorInternalEndpoints } from './two-factor';
import { notificationPreferenceInternalEndpoints } from './notification-preferences';

const anything = z.object({}).passthrough();

/** Session-only operations of the dashboard that have no v2 endpoint. */
export const internalEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/internal/setup',
    verb: getSetupStatus,
    status: 200,
    summary: 'First-run status',
    tags: ['Internal'],
    response: anything,
    isHiddenFromDocument: true,
    isAnonymous: true,
  },
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
    isHiddenFromDocument: true,
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
    isHiddenFromDocument: true,
  },
  {
    method: 'get',
    path: '/internal/accounts/{account_id}/v1-keys',
    verb: listV1Keys,
    status: 200,
    summary: 'List v1 keys',
    tags: ['Internal'],
    response: anything,
    isHiddenFromDocument: true,
  },
  {
    method: 'post',
    path: '/internal/accounts/{account_id}/v1-keys',
    verb: createV1Key,
    status: 201,
    summary: 'Create a v1 key (shown once)',
    tags: ['Internal'],
    body: createV1KeySchema,
    response: anything,
    input: ({ body }) => body,
    isHiddenFromDocument: true,
  },
  {
    method: 'delete',
    path: '/internal/accounts/{account_id}/v1-keys/{key_id}',
    verb: deleteV1Key,
    status: 200,
    summary: 'Delete a v1 key',
    tags: ['Internal'],
    response: anything,
    isHiddenFromDocument: true,
  },
  {
    method: 'get',
    path: '/internal/accounts/{account_id}/overview',
    verb: getAccountOverview,
    status: 200,
    summary: "Today's and the last seven days' figures, from the statistics rollups",
    tags: ['Internal'],
    query: accountOverviewQuerySchema,
    response: anything,
    input: ({ query }) => query,
    isHiddenFromDocument: true,
  },
  {
    method: 'get',
    path: '/internal/accounts/{account_id}/deliverability-settings',
    verb: getDeliverabilitySettings,
    status: 200,
    summary: 'The bounce-rate and complaint-rate limits that pause a sending domain, for the Deliverability page',
    tags: ['Internal'],
    response: anything,
    isHiddenFromDocument: true,
  },
  {
    method: 'get',
    path: '/internal/accounts/{account_id}/messages/{message_id}/details',
    verb: getMessageDetails,
    status: 200,
    summary: 'Next attempt, cancellability, bounce severity, suppression and source kind of a message',
    tags: ['Internal'],
    response: anything,
    input: ({ params }) => ({ message_id: params.message_id }),
    isHiddenFromDocument: true,
  },
  {
    method: 'get',
    path: '/internal/accounts/{account_id}/messages/{message_id}/events',
    verb: listMessageEvents,
    status: 200,
    summary: 'Events of a message',
    tags: ['Internal'],
    response: anything,
    isHiddenFromDocument: true,
  },
  {
    method: 'get',
    path: '/internal/accounts/{account_id}/messages/{message_id}/preview',
    verb: getMessage,
    status: 200,
    summary: "A message's HTML, for the dashboard's preview frame",
    tags: ['Internal'],
    response: anything,
    isHiddenFromDocument: true,
    // The policy travels as a header, so it holds before the browser reads a byte of the mail:
    // nothing remote loads, no script runs, and the page is a sandbox of its own.
    respond: (c, message: Awaited<ReturnType<typeof getMessage>>) =>
      c.body(message.content_parsed?.parts.find((part) => part.content_type === 'text/html')?.content ?? '', 200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      }),
  },
  {
    method: 'get',
    path: '/internal/me',
    verb: getCurrentUser,
    status: 200,
    summary: 'The signed-in user',
    tags: ['Internal'],
    response: anything,
    isHiddenFromDocument: true,
  },
  ...webhookInternalEndpoints,
  ...routeInternalEndpoints,
  ...smtpCredentialInternalEndpoints,
  ...contactAttributeInternalEndpoints,
  ...contactInternalEndpoints,
  ...templateInternalEndpoints,
  ...campaignInternalEndpoints,
  ...invitationInternalEndpoints,
  ...subAccountInternalEndpoints,
  ...userSessionInternalEndpoints,
  ...passwordResetInternalEndpoints,
  ...twoFactorInternalEndpoints,
  ...notificationPreferenceInternalEndpoints,
];
