import type { Principal } from '@/lib/auth/principal';
import type { AuthenticatedSmtpCredential } from '@/lib/core/smtp-credentials/authenticate-smtp-credential';

/**
 * What an SMTP credential may do, as scopes, so that the send verbs decide with the same rule as for
 * API keys: a global credential sends from any domain of the account, a scoped one from its domains.
 */
export function credentialPrincipal(credential: AuthenticatedSmtpCredential, clientIp: string | null): Principal {
  return {
    kind: 'smtp_credential',
    accountId: credential.accountId,
    targetAccountId: credential.accountId,
    credentialId: credential.credentialId,
    label: credential.username,
    scopes:
      credential.scope === 'global'
        ? ['messages:send:all']
        : credential.domains.map((domain) => `messages:send:{${domain}}`),
    clientIp,
    isSandbox: credential.isSandbox,
  };
}
