import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';

/**
 * How a credential connects, for the dashboard to show beside it: the host of PUBLIC_URL (the name
 * the certificate holds), the submission port, STARTTLS then AUTH PLAIN or LOGIN. Port null: off.
 */
export const getSmtpSettings = defineVerb({
  scope: 'smtp-credentials:read:{domain}',
  input: z.object({}).passthrough(),
  async run({ config }) {
    const port = config.smtpSubmissionPort ?? 0;
    return { host: config.publicUrl.hostname.replace(/^\[|\]$/g, ''), port: port === 0 ? null : port, security: 'STARTTLS' as const, auth_methods: ['PLAIN', 'LOGIN'] };
  },
});
