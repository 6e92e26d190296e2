import { and, eq } from 'drizzle-orm';
import { notFound } from '@/lib/shared/errors';
import type { DbOrTx } from '@/lib/db/client';
import { messages } from '@/lib/db/schema';
import { isUuid } from '@/lib/shared/ids';

/** The id in a path: a bare UUID, or the Message-ID `<uuid@domain>` that send returned. */
function parseMessageRef(raw: string): string | null {
  const trimmed = raw.trim().replace(/^</, '').replace(/>$/, '');
  const id = trimmed.includes('@') ? trimmed.slice(0, trimmed.indexOf('@')) : trimmed;
  return isUuid(id) ? id.toLowerCase() : null;
}

export async function getMessageInAccount(db: DbOrTx, accountId: string, ref: string) {
  const id = parseMessageRef(ref);
  if (!id) throw notFound('message not found');
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.id, id)))
    .limit(1);
  if (!row) throw notFound('message not found');
  return row;
}
