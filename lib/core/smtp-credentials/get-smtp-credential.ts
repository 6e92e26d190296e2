import { defineVerb } from '@/lib/core/verb';
import { domainsToAuthorize } from '@/lib/core/webhooks/internal/queries';
import { presentSmtpCredential } from './internal/present';
import { getSmtpCredentialInAccount } from './internal/queries';
import { smtpCredentialPathSchema } from './schemas';

/** One credential, without its password; a domain-scoped key needs one of its domains. */
export const getSmtpCredential = defineVerb({
  scope: 'smtp-credentials:read:{domain}',
  input: smtpCredentialPathSchema,
  domains: async ({ db, principal }, input) =>
    domainsToAuthorize(
      principal,
      'smtp-credentials:read:{domain}',
      await getSmtpCredentialInAccount(db, principal.targetAccountId, input.smtp_credential_id),
    ),
  async run({ db, principal }, input) {
    const credential = await getSmtpCredentialInAccount(db, principal.targetAccountId, input.smtp_credential_id);
    return presentSmtpCredential(credential.row, credential.domains);
  },
});
