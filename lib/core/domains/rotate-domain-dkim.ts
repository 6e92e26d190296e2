import { and, eq } from 'drizzle-orm';
import { conflict } from '@/lib/shared/errors';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { dkimKeys } from '@/lib/db/schema';
import { DKIM_KEY_PURPOSE, generateDkimKey, newDkimSelector } from './dkim-keys';
import { presentDomain } from './internal/present';
import { getDomainInAccount, loadLiveKeys } from './internal/queries';
import { domainPathSchema } from './schemas';

/**
 * DKIM rotation (Mailstead extension): once the standby record is published, the standby key signs
 * from now on, the old key retires, and a new standby is made to publish for the next rotation.
 */
export const rotateDomainDkim = defineVerb({
  scope: 'domains:write',
  input: domainPathSchema,
  async run(ctx, input) {
    const { db, principal, config, secrets, now } = ctx;
    const row = await getDomainInAccount(db, principal.targetAccountId, input.domain);
    const keys = await loadLiveKeys(db, [row.id]);
    const standby = keys.find((key) => key.status === 'standby');
    if (!standby || !row.dnsChecks[`TXT:${standby.selector}._domainkey.${row.domain}`]?.propagated) {
      throw conflict('the standby DKIM record is not published yet: publish it, check DNS, then rotate');
    }
    const fresh = await generateDkimKey();
    let selector = newDkimSelector();
    while (keys.some((key) => key.selector === selector)) selector = newDkimSelector();
    await db.transaction(async (tx) => {
      await tx
        .update(dkimKeys)
        .set({ status: 'retired', retiredAt: now() })
        .where(and(eq(dkimKeys.domainId, row.id), eq(dkimKeys.status, 'active')));
      await tx.update(dkimKeys).set({ status: 'active', activatedAt: now() }).where(eq(dkimKeys.id, standby.id));
      await tx.insert(dkimKeys).values({
        domainId: row.id,
        selector,
        status: 'standby',
        privateKeyEncrypted: secrets.encrypt(DKIM_KEY_PURPOSE, fresh.privateKeyPem),
        publicKey: fresh.publicKey,
        keyBits: fresh.keyBits,
      });
      await recordAuditEvent(tx, ctx, {
        action: 'domain.rotate_dkim',
        resource: { type: 'domain', id: row.domain },
      });
    });
    return presentDomain(row, await loadLiveKeys(db, [row.id]), config);
  },
});
