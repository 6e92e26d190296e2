import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq, isNull } from 'drizzle-orm';
import { normalizeDomainName } from '@/lib/core/domains/internal/normalize-domain-name';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import { defineVerb } from '@/lib/core/verb';
import { domains } from '@/lib/db/schema';
import { conflict, invalidInput } from '@/lib/shared/errors';
import { presentSuppression } from './internal/present';
import { createSuppressionSchema } from './schemas';
import { suppressRecipient } from './suppress-recipient';

/**
 * A manual suppression of one address, for one domain of the account or (no domain) all of them.
 * One in force for the same address and domain is a 409; an expired one is replaced. The answer is
 * a list, as the contract has it: one suppression.
 */
export const createSuppression = defineVerb({
  scope: 'suppressions:write',
  input: createSuppressionSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const accountId = principal.targetAccountId;
    const email = normalizeEmailAddress(input.email);
    if (!email.ok) throw invalidInput(`email: ${email.reason}`, 'email');
    const at = now();
    const expiresAt = new Date(input.expires_at);
    if (expiresAt <= at) throw invalidInput('expires_at: must be in the future', 'expires_at');
    let domain = { name: '', id: null as string | null };
    if (input.domain != null && input.domain.trim() !== '') {
      const name = normalizeDomainName(input.domain);
      if (!name.ok) throw invalidInput(`domain: ${name.reason}`, 'domain');
      const [row] = await db
        .select({ id: domains.id })
        .from(domains)
        .where(and(eq(domains.accountId, accountId), eq(domains.domain, name.domain), isNull(domains.deletedAt)))
        .limit(1);
      if (!row) throw invalidInput(`domain: ${name.domain} is not a domain of this account`, 'domain');
      domain = { name: name.domain, id: row.id };
    }
    const created = await db.transaction(async (tx) => {
      const suppressed = await suppressRecipient(
        tx,
        {
          accountId,
          email: email.email,
          domain: domain.name,
          domainId: domain.id,
          kind: 'manual',
          reason: input.reason ?? null,
          expiresAt,
          at,
        },
        { ifSuppressed: 'keep' },
      );
      // Only a new suppression is a change; the 409 below rolls nothing back, so record only then.
      if (suppressed?.isNew)
        await recordAuditEvent(tx, ctx, {
          action: 'suppression.create',
          resource: { type: 'suppression', id: suppressed.row.email },
        });
      return suppressed;
    });
    if (!created?.isNew) throw conflict('suppression already exists', 'email');
    return { object: 'list' as const, data: [presentSuppression(created.row)] };
  },
});
