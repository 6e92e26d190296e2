import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '@/lib/db/client';
import { templates } from '@/lib/db/schema';
import { AppError, notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import type { TemplateRow } from './present';

/** A template of the account that is not deleted, or 404; `forUpdate` locks the row for a write. */
export async function getTemplateInAccount(
  db: DbOrTx,
  accountId: string,
  templateId: string,
  options: { forUpdate?: boolean } = {},
): Promise<TemplateRow> {
  if (!isUuid(templateId)) throw notFound('template not found');
  const query = db
    .select()
    .from(templates)
    .where(
      and(eq(templates.accountId, accountId), eq(templates.id, templateId.toLowerCase()), isNull(templates.deletedAt)),
    )
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('template not found');
  return row;
}

// serialization_failure, deadlock_detected, lock_not_available (lock_timeout), unique_violation
// (two publishes that raced past the lock cannot happen, but a retry is the right answer if they did).
const RETRYABLE_CODES = new Set(['40001', '40P01', '55P03', '23505']);
const ATTEMPTS = 3;
const LOCK_TIMEOUT_MS = 1000;
export const TEMPLATE_RETRY_AFTER_SECONDS = 1;

function isRetryable(error: unknown): boolean {
  for (
    let current: unknown = error;
    current && typeof current === 'object';
    current = (current as { cause?: unknown }).cause
  ) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && RETRYABLE_CODES.has(code)) return true;
  }
  return false;
}

/** The 409 a client retries after `Retry-After` (service spec, Errors rule 2); never stored for an Idempotency-Key. */
export const templateBusy = () =>
  new AppError('conflict', 'the template is being changed by another request; try again shortly', undefined, {
    'Retry-After': String(TEMPLATE_RETRY_AFTER_SECONDS),
  });

/**
 * Runs one template write in a transaction that holds the template's row lock, so that writes to a
 * template happen one after another. Waiting is bounded by a lock timeout; a write that keeps
 * colliding is retried a few times, then refused with 409 and `Retry-After`.
 */
export async function writeTemplate<T>(
  db: Db,
  accountId: string,
  templateId: string,
  write: (tx: Tx, row: TemplateRow) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local lock_timeout = ${LOCK_TIMEOUT_MS}`));
        const row = await getTemplateInAccount(tx, accountId, templateId, { forUpdate: true });
        return write(tx, row);
      });
    } catch (error) {
      if (!isRetryable(error)) throw error;
      if (attempt >= ATTEMPTS) throw templateBusy();
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
    }
  }
}
