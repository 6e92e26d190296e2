import type { Page } from '@/lib/core/shared/pagination';
import { createSmtpCredential } from '@/lib/core/smtp-credentials/create-smtp-credential';
import { deleteSmtpCredential } from '@/lib/core/smtp-credentials/delete-smtp-credential';
import { getSmtpCredential } from '@/lib/core/smtp-credentials/get-smtp-credential';
import { listSmtpCredentials } from '@/lib/core/smtp-credentials/list-smtp-credentials';
import {
  createdSmtpCredentialSchema,
  createSmtpCredentialSchema,
  listSmtpCredentialsQuerySchema,
  smtpCredentialSchema,
} from '@/lib/core/smtp-credentials/schemas';
import type { Endpoint } from '../endpoint';
import { listEnvelopeSchema, presentPage } from '../pagination';
import { successResponseSchema } from '../schemas';

const collection = '/v2/accounts/{account_id}/smtp-credentials' as const;
const item = `${collection}/{smtp_credential_id}` as const;
const tags = ['SMTP Credentials'];

// No update: the contract has none (a credential is replaced by deleting it and creating another).
export const smtpCredentialEndpoints = [
  {
    method: 'get',
    path: collection,
    verb: listSmtpCredentials,
    status: 200,
    summary: 'List SMTP credentials',
    tags,
    query: listSmtpCredentialsQuerySchema,
    response: listEnvelopeSchema(smtpCredentialSchema, 'PaginatedSMTPCredentialsResponse'),
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'post',
    path: collection,
    verb: createSmtpCredential,
    status: 201,
    summary: 'Create SMTP credential',
    tags,
    body: createSmtpCredentialSchema,
    response: createdSmtpCredentialSchema,
    input: ({ body }) => body,
    // As API-key creation: the stored replay is encrypted and replays only to the credential that made it.
    idempotency: 'secret',
    isSecretBearing: true,
  },
  {
    method: 'get',
    path: item,
    verb: getSmtpCredential,
    status: 200,
    summary: 'Get SMTP credential',
    tags,
    response: smtpCredentialSchema,
  },
  {
    method: 'delete',
    path: item,
    verb: deleteSmtpCredential,
    status: 200,
    summary: 'Delete SMTP credential',
    tags,
    response: successResponseSchema,
  },
] satisfies Endpoint[];
