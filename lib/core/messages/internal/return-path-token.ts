import { sql, type SQL } from 'drizzle-orm';
import { randomHex } from '@/lib/shared/ids';

/**
 * A message's return-path token (`bounces+TOKEN@host`): its id's 32 hex digits, then 80 random
 * bits. The id finds the message by primary key, so the column needs no index of its own (one
 * index fewer written per message, at acceptance and at every non-HOT update); the random part,
 * compared with the stored token, keeps a bounce from being forged by anyone who saw the id (it
 * is in every Message-ID). 52 characters: with `bounces+`, within SMTP's 64 for a local part.
 */
export function newReturnPathToken(messageId: string): string {
  return messageId.replaceAll('-', '') + randomHex(10);
}

/** newReturnPathToken in SQL, for rows the database builds (`id` is the row's uuid). */
export function returnPathTokenSql(id: SQL): SQL {
  // 80 bits from the database's cryptographic generator, as randomHex(10) gives on Node.
  return sql`replace(${id}::text, '-', '') || left(md5(gen_random_uuid()::text), 20)`;
}

const TOKEN = /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})[0-9a-f]{20}$/;

/**
 * The message id a token names, or null when it is not a token of this form. Tokens of the earlier
 * form (20 random hex digits, found through an index this table no longer has) name no message:
 * a late bounce of a message sent before the upgrade is ignored rather than guessed at.
 */
export function messageIdOfReturnPathToken(token: string): string | null {
  const parts = TOKEN.exec(token);
  return parts ? parts.slice(1).join('-') : null;
}
