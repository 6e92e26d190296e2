import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';

/**
 * How a credential connects, for the dashboard to show beside it: the host of PUBLIC_URL (the name
 * the certificate holds), the submission port (STARTTLS, then AUTH PLAIN or LOGIN) and the implicit-TLS
 * port (TLS from the first byte). A port that is off is null.
 */
export const getSmtpSettings = defineVerb({
  scope: 'smtp-credentials:read:{domain}',
  input: z.object({}).passthrough(),
  async run({ config }) {
    const open = (port: number | undefined) => (port ? port : null);
    return {
      host: config.publicUrl.hostname.replace(/^\[|\]$/g, ''),
      port: open(config.smtpSubmissionPort),
      security: 'STARTTLS' as const,
      tls_port: open(config.smtpSubmissionTlsPort),
      auth_methods: ['PLAIN', 'LOGIN'],
    };
  },
});
