import { cancelMessage } from '@/lib/core/messages/cancel-message';
import { getMessage } from '@/lib/core/messages/get-message';
import { listMessages } from '@/lib/core/messages/list-messages';
import {
  createMessageResponseSchema,
  listMessagesQuerySchema,
  messageSchema,
  messageSummarySchema,
  sendMessageSchema,
} from '@/lib/core/messages/schemas';
import { sendConversation, sendConversationSchema } from '@/lib/core/messages/send-conversation';
import { sendMessage } from '@/lib/core/messages/send-message';
import type { Page } from '@/lib/core/shared/pagination';
import type { Endpoint } from '../endpoint';
import { listEnvelopeSchema, presentPage } from '../pagination';
import { successResponseSchema } from '../schemas';

const collection = '/v2/accounts/{account_id}/messages' as const;
const tags = ['Messages'];

// Attachments travel base64-encoded inside the JSON body.
export const SEND_BODY_LIMIT = 30 * 1024 * 1024;

export const messageEndpoints = [
  {
    method: 'post',
    path: collection,
    verb: sendMessage,
    status: 202,
    summary: 'Send a message (one per recipient)',
    tags,
    body: sendMessageSchema,
    response: createMessageResponseSchema,
    input: ({ body }) => body,
    idempotency: 'standard',
    bodyLimit: SEND_BODY_LIMIT,
  },
  {
    method: 'post',
    path: `${collection}/conversation` as const,
    verb: sendConversation,
    status: 202,
    summary: 'Send one message to To, Cc and Bcc recipients',
    tags,
    body: sendConversationSchema,
    response: createMessageResponseSchema,
    input: ({ body }) => body,
    idempotency: 'standard',
    bodyLimit: SEND_BODY_LIMIT,
  },
  {
    method: 'get',
    path: collection,
    verb: listMessages,
    status: 200,
    summary: 'List messages',
    tags,
    query: listMessagesQuerySchema,
    response: listEnvelopeSchema(messageSummarySchema, 'PaginatedMessagesResponse'),
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'get',
    path: `${collection}/{message_id}` as const,
    verb: getMessage,
    status: 200,
    summary: 'Get a message',
    tags,
    response: messageSchema,
  },
  {
    method: 'delete',
    path: `${collection}/{message_id}/cancel` as const,
    verb: cancelMessage,
    status: 200,
    summary: 'Cancel a scheduled message',
    tags,
    response: successResponseSchema,
  },
] satisfies Endpoint[];
