import { getSmtpSettings } from '@/lib/core/smtp-credentials/get-smtp-settings';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';

/** The connection settings the SMTP credentials page shows (session only). */
export const smtpCredentialInternalEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/internal/accounts/{account_id}/smtp-settings',
    verb: getSmtpSettings,
    status: 200,
    summary: 'Host, port and TLS mode of SMTP submission',
    tags: ['Internal'],
    response: z.object({}).passthrough(),
    input: () => ({}),
    isHiddenFromDocument: true,
  },
];
