import type { smtpCredentials } from '@/lib/db/schema';

export type SmtpCredentialRow = typeof smtpCredentials.$inferSelect;

/** The SMTPCredential object; `domains` is `[]` for global credentials. The password never appears here. */
export function presentSmtpCredential(row: SmtpCredentialRow, domains: readonly string[]) {
  return {
    object: 'credential_smtp' as const,
    id: row.id,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    name: row.name,
    username: row.username,
    sandbox: row.isSandbox,
    scope: row.scope as 'global' | 'scoped',
    domains: row.scope === 'global' ? [] : [...domains].sort(),
  };
}

export type SmtpCredentialObject = ReturnType<typeof presentSmtpCredential>;
