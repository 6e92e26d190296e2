import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { smtpCredentialDomains, smtpCredentials } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import type { SmtpCredentialRow } from './present';

export type SmtpCredentialWithDomains = { row: SmtpCredentialRow; domains: string[] };

/** A credential of the account with its domains, or 404. */
export async function getSmtpCredentialInAccount(
  db: DbOrTx,
  accountId: string,
  credentialId: string,
): Promise<SmtpCredentialWithDomains> {
  if (!isUuid(credentialId)) throw notFound('smtp credential not found');
  const [row] = await db
    .select()
    .from(smtpCredentials)
    .where(and(eq(smtpCredentials.accountId, accountId), eq(smtpCredentials.id, credentialId)))
    .limit(1);
  if (!row) throw notFound('smtp credential not found');
  return { row, domains: (await loadSmtpCredentialDomains(db, [row.id])).get(row.id) ?? [] };
}

/** Domains of credentials already fetched within an account, by credential id. */
export async function loadSmtpCredentialDomains(db: DbOrTx, credentialIds: string[]): Promise<Map<string, string[]>> {
  const byCredential = new Map<string, string[]>();
  if (credentialIds.length === 0) return byCredential;
  const rows = await db
    .select()
    .from(smtpCredentialDomains)
    .where(inArray(smtpCredentialDomains.credentialId, credentialIds));
  for (const row of rows)
    byCredential.set(row.credentialId, [...(byCredential.get(row.credentialId) ?? []), row.domain]);
  return byCredential;
}
