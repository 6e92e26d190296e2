import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { AppError, invalidInput } from '@/lib/shared/errors';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { accounts, dkimKeys, domains, messages } from '@/lib/db/schema';
import { newDkimSelector } from './dkim-keys';
import { DEFAULT_SUBDOMAINS } from './internal/dns-records';
import { presentDomain } from './internal/present';
import { getDomainInAccount, loadLiveKeys } from './internal/queries';
import { nextUtcDay } from './internal/warmup-plan';
import type { z } from '@/lib/core/zod';
import { domainPathSchema, updateDomainSchema } from './schemas';

const SUBDOMAIN_FIELDS = [
  ['tracking_subdomain', 'trackingSubdomain', DEFAULT_SUBDOMAINS.tracking],
  ['return_path_subdomain', 'returnPathSubdomain', DEFAULT_SUBDOMAINS.returnPath],
  ['subscription_subdomain', 'subscriptionSubdomain', DEFAULT_SUBDOMAINS.subscription],
  ['media_subdomain', 'mediaSubdomain', DEFAULT_SUBDOMAINS.media],
] as const;

/** The API's field names of the columns a change can set, for the audit log. */
const CHANGED_FIELDS = [
  ...SUBDOMAIN_FIELDS.map(([field, column]) => [field, column] as const),
  ['dkim_selector', 'dkimSelector'],
  ['sending_type', 'sendingType'],
  ['dsn_recipient', 'dsnRecipient'],
  ['reports_enabled', 'reportsEnabled'],
  ['warmup', 'warmupEnabled'],
  ['warmup', 'warmupPlan'],
  ['warmup', 'warmupStartedAt'],
] as const;

const WARMUP_COLUMNS = ['warmupEnabled', 'warmupPlan', 'warmupStartedAt'] as const;

/**
 * Partial update. Omitted fields stay; `null` puts a subdomain back to the default. A subdomain whose
 * record has verified is locked, and so is the DKIM selector once DKIM has verified: changing them
 * would break a working setup.
 */
export const updateDomain = defineVerb({
  scope: 'domains:write',
  input: updateDomainSchema.extend(domainPathSchema.shape),
  async run(ctx, input) {
    const { db, principal, config, now } = ctx;
    const row = await getDomainInAccount(db, principal.targetAccountId, input.domain);
    const keys = await loadLiveKeys(db, [row.id]);
    const changes: Partial<typeof domains.$inferInsert> = {};

    for (const [field, column, fallback] of SUBDOMAIN_FIELDS) {
      const given = input[field];
      if (given === undefined) continue;
      const current = row[column] ?? fallback;
      const next = given ?? fallback;
      if (next === current && (given === null) === (row[column] === null)) continue;
      if (next !== current && row.dnsChecks[`CNAME:${current}.${row.domain}`]?.hasVerified) {
        throw invalidInput(`${field}: "${current}" is locked because its DNS record has verified`, field);
      }
      changes[column] = given;
    }

    let renameActiveTo: string | null = null;
    if (input.dkim_selector != null) {
      const wanted = input.dkim_selector.trim().toLowerCase();
      const active = keys.find((key) => key.status === 'active');
      if (wanted !== '') {
        const [account] = await db
          .select({ tier: accounts.tier })
          .from(accounts)
          .where(eq(accounts.id, principal.targetAccountId));
        if (account?.tier !== 'partner')
          throw new AppError(
            'forbidden',
            'dkim_selector: choosing the DKIM selector is available to partner accounts only',
            'dkim_selector',
          );
      }
      if ((wanted || null) !== row.dkimSelector && active) {
        if (row.dnsChecks[`TXT:${active.selector}._domainkey.${row.domain}`]?.hasVerified) {
          throw invalidInput(
            `dkim_selector: the selector "${active.selector}" is locked because DKIM has verified`,
            'dkim_selector',
          );
        }
        renameActiveTo = wanted || newDkimSelector();
        if (keys.some((key) => key.status === 'standby' && key.selector === renameActiveTo)) {
          throw invalidInput('dkim_selector: is already the standby selector of this domain', 'dkim_selector');
        }
        changes.dkimSelector = wanted || null;
      }
    }
    if (input.sending_type !== undefined) changes.sendingType = input.sending_type;
    if (input.dsn_recipient !== undefined) changes.dsnRecipient = input.dsn_recipient;
    if (input.reports_enabled !== undefined && input.reports_enabled !== row.reportsEnabled) {
      changes.reportsEnabled = input.reports_enabled;
      // Stored, random and kept when reports go off: the address stays the one published in DNS.
      if (input.reports_enabled && !row.reportsToken) changes.reportsToken = randomBytes(12).toString('hex');
    }
    if (input.warmup !== undefined) Object.assign(changes, warmupChanges(row, input.warmup, now()));

    if (Object.keys(changes).length === 0) return presentDomain(row, keys, config);
    return db.transaction(async (tx) => {
      const [updated] = await tx
        .update(domains)
        .set({ ...changes, updatedAt: now() })
        .where(and(eq(domains.accountId, principal.targetAccountId), eq(domains.id, row.id)))
        .returning();
      if (renameActiveTo) {
        await tx
          .update(dkimKeys)
          .set({ selector: renameActiveTo })
          .where(and(eq(dkimKeys.domainId, row.id), eq(dkimKeys.status, 'active')));
      }
      if (WARMUP_COLUMNS.some((column) => column in changes)) {
        // Mail held for tomorrow goes through the gate again now, under the new setting: turned off, at full volume.
        await tx
          .update(messages)
          .set({ nextAttemptAt: now() })
          .where(
            and(
              eq(messages.accountId, principal.targetAccountId),
              eq(messages.domainId, row.id),
              inArray(messages.status, ['queued', 'deferred']),
              eq(messages.nextAttemptAt, nextUtcDay(now())),
            ),
          );
      }
      await recordAuditEvent(tx, ctx, {
        action: 'domain.update',
        resource: { type: 'domain', id: row.domain },
        changes: [...new Set(CHANGED_FIELDS.filter(([, column]) => column in changes).map(([field]) => field))],
      });
      return presentDomain(updated, await loadLiveKeys(tx, [row.id]), config);
    });
  },
});

/**
 * The warm-up columns a setting changes. Turning it on starts day 1 today unless `started_at` says
 * otherwise; an omitted plan keeps the stored one (null: the default).
 */
function warmupChanges(
  row: typeof domains.$inferSelect,
  warmup: NonNullable<z.output<typeof updateDomainSchema>['warmup']>,
  now: Date,
): Partial<typeof domains.$inferInsert> {
  const changes: Partial<typeof domains.$inferInsert> = {};
  if (warmup.enabled !== row.warmupEnabled) changes.warmupEnabled = warmup.enabled;
  if (warmup.plan !== undefined && JSON.stringify(warmup.plan) !== JSON.stringify(row.warmupPlan))
    changes.warmupPlan = warmup.plan;
  const startedAt = warmup.started_at
    ? new Date(warmup.started_at)
    : warmup.enabled && (!row.warmupEnabled || !row.warmupStartedAt)
      ? now
      : null;
  if (startedAt && startedAt.getTime() !== row.warmupStartedAt?.getTime()) changes.warmupStartedAt = startedAt;
  return changes;
}
