import { eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { accounts } from '@/lib/db/schema';
import { normalizeEmailAddress, type EmailResult } from '@/lib/core/shared/email-address';
import { DISPOSABLE_DOMAINS, MAILBOX_PROVIDERS } from './internal/recipient-domain-lists';

/** The account's Reputation Shield switches (PUT /v2/accounts/{id}: reject_bad_recipients, reject_mistyped_recipients). */
export type ReputationShield = { rejectBadRecipients: boolean; rejectMistypedRecipients: boolean };

export const SHIELD_OFF: ReputationShield = { rejectBadRecipients: false, rejectMistypedRecipients: false };

export async function loadReputationShield(db: DbOrTx, accountId: string): Promise<ReputationShield> {
  const [row] = await db
    .select({
      rejectBadRecipients: accounts.rejectBadRecipients,
      rejectMistypedRecipients: accounts.rejectMistypedRecipients,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  return row ?? SHIELD_OFF;
}

/** Optimal string alignment distance, capped: only 0, 1 and "more" matter here. */
function isOneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length] === 1;
}

const LIKELY_TLD_TYPOS = new Set(['con', 'cmo', 'cm', 'om', 'co', 'comm', 'coom', 'vom', 'xom', 'nte', 'ner']);

/** The big mailbox provider a domain is one keystroke away from (gmial.com, gmail.con), if any. */
export function likelyIntendedDomain(domain: string): string | null {
  if (MAILBOX_PROVIDERS.has(domain)) return null;
  const dot = domain.indexOf('.');
  const [name, tld] = dot < 0 ? [domain, ''] : [domain.slice(0, dot), domain.slice(dot + 1)];
  for (const provider of MAILBOX_PROVIDERS) {
    const [providerName, providerTld] = [
      provider.slice(0, provider.indexOf('.')),
      provider.slice(provider.indexOf('.') + 1),
    ];
    // Short names (aol, msn) are one edit from too many real domains to call a typo.
    if (providerName.length >= 5 && tld === providerTld && isOneEditApart(name, providerName)) return provider;
    if (name === providerName && LIKELY_TLD_TYPOS.has(tld) && tld !== providerTld) return provider;
  }
  return null;
}

/**
 * Why the account's Reputation Shield refuses a recipient domain, or null: disposable (tempmail)
 * domains when reject_bad_recipients is on, likely typos of a big mailbox provider when
 * reject_mistyped_recipients is on. Parent domains count: mx.mailinator.com is mailinator's.
 */
export function shieldRefusal(domain: string, shield: ReputationShield): string | null {
  if (shield.rejectBadRecipients) {
    const labels = domain.split('.');
    const isDisposable = labels.some(
      (_, index) => index < labels.length - 1 && DISPOSABLE_DOMAINS.has(labels.slice(index).join('.')),
    );
    if (isDisposable)
      return `recipient domain ${domain} is a disposable mailbox service, refused by the account's Reputation Shield (reject_bad_recipients)`;
  }
  if (shield.rejectMistypedRecipients) {
    const intended = likelyIntendedDomain(domain);
    if (intended)
      return `recipient domain ${domain} looks like a typo of ${intended}, refused by the account's Reputation Shield (reject_mistyped_recipients)`;
  }
  return null;
}

/** A recipient address as every send path takes it: normalized, then screened by the shield. */
export function screenRecipient(raw: string, shield: ReputationShield): EmailResult {
  const address = normalizeEmailAddress(raw);
  if (!address.ok) return address;
  const refusal = shieldRefusal(address.domain, shield);
  return refusal ? { ok: false, reason: refusal } : address;
}

const DOMAIN_CHARACTERS = 'abcdefghijklmnopqrstuvwxyz0123456789-';

/** Every name one edit (OSA) from `name`: what isOneEditApart accepts, spelled out for SQL. */
function oneEditVariants(name: string): string[] {
  const variants = new Set<string>();
  for (let i = 0; i <= name.length; i++) {
    for (const char of DOMAIN_CHARACTERS) {
      variants.add(name.slice(0, i) + char + name.slice(i));
      if (i < name.length) variants.add(name.slice(0, i) + char + name.slice(i + 1));
    }
    if (i < name.length) variants.add(name.slice(0, i) + name.slice(i + 1));
    if (i < name.length - 1) variants.add(name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2));
  }
  variants.delete(name);
  return [...variants];
}

let mistypedDomains: string[] | null = null;

/** The domains likelyIntendedDomain calls typos, listed once (about 7,000): a set SQL can hash. */
export function listMistypedDomains(): string[] {
  if (mistypedDomains) return mistypedDomains;
  const found = new Set<string>();
  for (const provider of MAILBOX_PROVIDERS) {
    const dot = provider.indexOf('.');
    const [name, tld] = [provider.slice(0, dot), provider.slice(dot + 1)];
    if (name.length >= 5) for (const variant of oneEditVariants(name)) found.add(`${variant}.${tld}`);
    for (const typo of LIKELY_TLD_TYPOS) if (typo !== tld) found.add(`${name}.${typo}`);
  }
  mistypedDomains = [...found].filter((domain) => likelyIntendedDomain(domain) !== null).sort();
  return mistypedDomains;
}

/**
 * The shield as a condition on an address column, for campaign audiences: true when the account's
 * switches let the address through, exactly as shieldRefusal decides for API sends. The switches are
 * read in the statement; the domain sets are hashed once per statement, not per row.
 */
export function shieldAllowsSql(accountId: string, email: SQL): SQL {
  const domain = sql`lower(split_part(${email}, '@', 2))`;
  // One regular expression, compiled once: the domain or any parent of it is a disposable service.
  const disposable = `(^|\\.)(${[...DISPOSABLE_DOMAINS].map((name) => name.replace(/[.-]/g, '\\$&')).join('|')})$`;
  const switches = (column: SQL) => sql`coalesce((select ${column} from accounts a where a.id = ${accountId}), false)`;
  return sql`not (
    (${switches(sql`a.reject_bad_recipients`)} and ${domain} ~ ${disposable})
    or (${switches(sql`a.reject_mistyped_recipients`)} and ${domain} in (select unnest(${sql.param(listMistypedDomains())}::text[])))
  )`;
}
