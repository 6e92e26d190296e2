import { and, eq, isNull } from 'drizzle-orm';
import { AppError, conflict, invalidInput } from '@/lib/shared/errors';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { accounts, dkimKeys, domains } from '@/lib/db/schema';
import { DKIM_KEY_PURPOSE, generateDkimKey, newDkimSelector, parseCustomerDkimKey } from './dkim-keys';
import { normalizeDomainName } from './internal/normalize-domain-name';
import { presentDomain } from './internal/present';
import { createDomainSchema } from './schemas';

/**
 * Adds a sending domain with its own DKIM key pair (active) and a standby pair for rotation.
 * Bringing your own key or selector is for partner accounts.
 */
export const createDomain = defineVerb({
  scope: 'domains:write',
  input: createDomainSchema,
  async run(ctx, input) {
    const { db, principal, config, secrets } = ctx;
    const name = normalizeDomainName(input.domain);
    if (!name.ok)
      throw invalidInput(
        `domain: invalid domain name, please provide a valid fully qualified domain name (it ${name.reason})`,
        'domain',
      );
    if (input.dkim_private_key !== undefined || input.dkim_selector !== '') {
      const [account] = await db
        .select({ tier: accounts.tier })
        .from(accounts)
        .where(eq(accounts.id, principal.targetAccountId));
      if (account?.tier !== 'partner') {
        const field = input.dkim_private_key !== undefined ? 'dkim_private_key' : 'dkim_selector';
        throw new AppError(
          'forbidden',
          `${field}: bringing your own DKIM key or selector is available to partner accounts only`,
          field,
        );
      }
    }
    const activeKey =
      input.dkim_private_key !== undefined ? parseCustomerDkimKey(input.dkim_private_key) : await generateDkimKey();
    const standbyKey = await generateDkimKey();
    const activeSelector = input.dkim_selector || newDkimSelector();
    let standbySelector = newDkimSelector();
    while (standbySelector === activeSelector) standbySelector = newDkimSelector();

    return db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: domains.id })
        .from(domains)
        .where(
          and(
            eq(domains.accountId, principal.targetAccountId),
            eq(domains.domain, name.domain),
            isNull(domains.deletedAt),
          ),
        );
      if (existing) throw conflict('domain already exists', 'domain');
      const [row] = await tx
        .insert(domains)
        .values({
          accountId: principal.targetAccountId,
          domain: name.domain,
          sendingType: input.sending_type ?? 'transactional',
          trackingSubdomain: input.tracking_subdomain ?? null,
          returnPathSubdomain: input.return_path_subdomain ?? null,
          subscriptionSubdomain: input.subscription_subdomain ?? null,
          mediaSubdomain: input.media_subdomain ?? null,
          dkimSelector: input.dkim_selector || null,
        })
        .onConflictDoNothing()
        .returning();
      if (!row) throw conflict('domain already exists', 'domain');
      const keys = await tx
        .insert(dkimKeys)
        .values([
          {
            domainId: row.id,
            selector: activeSelector,
            status: 'active',
            privateKeyEncrypted: secrets.encrypt(DKIM_KEY_PURPOSE, activeKey.privateKeyPem),
            publicKey: activeKey.publicKey,
            keyBits: activeKey.keyBits,
            isCustomerProvided: input.dkim_private_key !== undefined,
            activatedAt: row.createdAt,
          },
          {
            domainId: row.id,
            selector: standbySelector,
            status: 'standby',
            privateKeyEncrypted: secrets.encrypt(DKIM_KEY_PURPOSE, standbyKey.privateKeyPem),
            publicKey: standbyKey.publicKey,
            keyBits: standbyKey.keyBits,
          },
        ])
        .returning();
      await recordAuditEvent(tx, ctx, { action: 'domain.create', resource: { type: 'domain', id: row.domain } });
      return presentDomain(row, keys, config);
    });
  },
});
