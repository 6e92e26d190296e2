import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { messageIdOfReturnPathToken } from '@/lib/core/messages/internal/return-path-token';
import type { Db } from '@/lib/db/client';
import { domains, messages } from '@/lib/db/schema';

export type ReportedMessage = typeof messages.$inferSelect;

/** Where a report points: the envelope's token, else what the report quotes of the original. */
export type ReportClues = {
  /** The host of the envelope recipient: one of our return-path hosts. */
  host: string;
  /** From `bounces+TOKEN@host`; when present, nothing else is considered. */
  envelopeToken: string | null;
  /** Tokens quoted by the report (the original's Return-Path, ARF's Original-Mail-From). */
  quotedTokens: string[];
  /** The original's Message-ID, with the recipients the report names. */
  messageIdHeader: string | null;
  recipients: string[];
};

const TOKEN = /^[a-z0-9]{1,64}$/;

/** `bounces+TOKEN@host` -> TOKEN (lower-cased), or null. */
export function returnPathToken(address: string | null): string | null {
  const match = address ? /^bounces\+([^@]+)@/i.exec(address) : null;
  const token = match?.[1].toLowerCase() ?? null;
  return token && TOKEN.test(token) ? token : null;
}

/**
 * The message a report is about, or why none. The envelope's token names the message and so its
 * account; the host it came to must be that message's return-path host. Without a token in the
 * envelope, the host names the domain, and what the report quotes (a token, or the Message-ID with
 * the recipient) may only pick a message of that domain: never another account's. Unsafe: the
 * token and the host, not a principal, are the authority.
 */
export async function unsafeFindReportedMessage(
  db: Db,
  clues: ReportClues,
): Promise<{ message: ReportedMessage } | { reason: string }> {
  if (clues.envelopeToken) {
    const found = await db
      .select()
      .from(messages)
      .where(byToken([clues.envelopeToken]))
      .limit(1);
    if (found.length === 0) return { reason: 'the return-path token belongs to no message' };
    const [domain] = await db
      .select()
      .from(domains)
      .where(and(eq(domains.id, found[0].domainId), eq(domains.accountId, found[0].accountId)))
      .limit(1);
    if (!domain || !returnPathHosts(domain).includes(clues.host))
      return { reason: "the token's message does not use this return-path host" };
    return { message: found[0] };
  }
  const owners = await domainsServedBy(db, clues.host);
  if (owners.length === 0) return { reason: 'no domain uses this return-path host' };
  // The same domain name in two accounts: the host names no one account, so only a token may decide.
  if (new Set(owners.map((owner) => owner.accountId)).size > 1)
    return { reason: 'the return-path host is shared by several accounts and the envelope has no token' };
  const accountId = owners[0].accountId;
  const domainIds = owners.map((owner) => owner.id);
  const tokens = [...new Set(clues.quotedTokens.filter((token) => TOKEN.test(token)))].slice(0, 5);
  if (tokens.length) {
    const found = await db
      .select()
      .from(messages)
      .where(and(byToken(tokens), eq(messages.accountId, accountId), inArray(messages.domainId, domainIds)))
      .limit(2);
    if (found.length === 1) return { message: found[0] };
  }
  const recipients = [...new Set(clues.recipients)].slice(0, 5);
  if (clues.messageIdHeader && recipients.length) {
    // (account, recipient) is indexed; the account comes from the host, never from the report.
    const found = await db
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.accountId, accountId),
          inArray(messages.domainId, domainIds),
          inArray(messages.recipient, recipients),
          eq(messages.messageIdHeader, clues.messageIdHeader),
          eq(messages.direction, 'outbound'),
        ),
      )
      .limit(2);
    if (found.length === 1) return { message: found[0] };
    if (found.length > 1) return { reason: 'the quoted Message-ID matches more than one message' };
  }
  return { reason: 'the report names no message of this return-path host (no token, no known Message-ID)' };
}

/** Messages whose return-path token is one of `tokens`, found by the id each token carries (the primary key). */
function byToken(tokens: string[]): SQL {
  const ids = tokens.map(messageIdOfReturnPathToken).filter((id): id is string => id !== null);
  return ids.length > 0 ? and(inArray(messages.id, ids), inArray(messages.returnPathToken, tokens))! : sql`false`;
}

/** The hosts bounces to a domain's mail come to (lib/mail/return-path.ts picks one at send time). */
function returnPathHosts(domain: typeof domains.$inferSelect): string[] {
  return [`${domain.returnPathSubdomain ?? 'rp'}.${domain.domain}`, domain.domain];
}

/** Domains (deleted ones too: their mail can still bounce) whose return path is `host`. */
async function domainsServedBy(db: Db, host: string): Promise<{ id: string; accountId: string }[]> {
  const dot = host.indexOf('.');
  const parent = dot > 0 ? host.slice(dot + 1) : null;
  const label = dot > 0 ? host.slice(0, dot) : null;
  const rows = await db
    .select({ id: domains.id, accountId: domains.accountId })
    .from(domains)
    .where(
      or(
        eq(domains.domain, host),
        parent
          ? and(eq(domains.domain, parent), sql`coalesce(${domains.returnPathSubdomain}, 'rp') = ${label}`)
          : undefined,
      ),
    )
    .limit(20);
  return rows;
}
