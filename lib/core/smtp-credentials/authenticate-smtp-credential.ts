import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { accounts, smtpCredentials } from '@/lib/db/schema';
import { safeEqual } from '@/lib/shared/crypto';
import { hashSmtpPassword } from './create-smtp-credential';
import { loadSmtpCredentialDomains } from './internal/queries';
import type { ReputationShield } from '@/lib/core/messages/reputation-shield';

export type AuthenticatedSmtpCredential = {
  credentialId: string;
  username: string;
  accountId: string;
  accountStatus: string;
  scope: 'global' | 'scoped';
  domains: string[];
  isSandbox: boolean;
  /** The account's Reputation Shield, read at AUTH: RCPT TO answers 553 for the domains it refuses. */
  shield: ReputationShield;
};

/** The credential an SMTP AUTH names, when the password is its own; null otherwise. Not a verb: it runs before any principal exists. */
export async function authenticateSmtpCredential(
  db: Db,
  username: string,
  password: string,
): Promise<AuthenticatedSmtpCredential | null> {
  if (username.length > 100 || password.length > 200) return null;
  const [row] = await db
    .select({
      credential: smtpCredentials,
      accountStatus: accounts.status,
      rejectBadRecipients: accounts.rejectBadRecipients,
      rejectMistypedRecipients: accounts.rejectMistypedRecipients,
    })
    .from(smtpCredentials)
    .innerJoin(accounts, eq(accounts.id, smtpCredentials.accountId))
    .where(and(eq(smtpCredentials.username, username), isNull(accounts.deletedAt)))
    .limit(1);
  if (!row || !safeEqual(row.credential.passwordHash, hashSmtpPassword(password))) return null;
  return {
    credentialId: row.credential.id,
    username: row.credential.username,
    accountId: row.credential.accountId,
    accountStatus: row.accountStatus,
    scope: row.credential.scope as 'global' | 'scoped',
    domains: (await loadSmtpCredentialDomains(db, [row.credential.id])).get(row.credential.id) ?? [],
    isSandbox: row.credential.isSandbox,
    shield: { rejectBadRecipients: row.rejectBadRecipients, rejectMistypedRecipients: row.rejectMistypedRecipients },
  };
}
