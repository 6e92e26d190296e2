import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/lib/db/client';
import { contactImports } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import type { RowError } from './import-rows';
import type { ValidRow } from './validate-import-row';

/** What one committed batch moves the job forward by. */
export type ImportBatch = {
  rows: ValidRow[];
  errors: RowError[];
  keptErrors: RowError[];
  rowsDone: number;
  bytesDone: number;
};

/** Thrown when the job is no longer ours (its lease ran out and another worker took it): the batch is rolled back. */
export class ImportLeaseLostError extends Error {}

/**
 * One address appears once per statement (ON CONFLICT cannot touch a row twice): a later row of the
 * file updates an earlier one, as it would in a later batch. Sorted by address, so that two imports
 * into one account lock contacts in the same order and never deadlock.
 */
function mergeByEmail(rows: ValidRow[]): ValidRow[] {
  const byEmail = new Map<string, ValidRow>();
  for (const row of rows) {
    const earlier = byEmail.get(row.email);
    byEmail.set(
      row.email,
      earlier
        ? {
            ...row,
            firstName: row.firstName ?? earlier.firstName,
            lastName: row.lastName ?? earlier.lastName,
            attributes: { ...earlier.attributes, ...row.attributes },
          }
        : row,
    );
  }
  return [...byEmail.values()].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
}

/**
 * The batch's contacts in one statement: a multi-row upsert over unnest arrays (one parameter per
 * column), given names and attributes merged into an existing contact's (never cleared, never its
 * subscription), and with a list, a `confirmed` membership for each unless one exists (whatever its
 * status: an unsubscribed or complained membership stays as it is, R9).
 */
async function upsertContacts(
  tx: Tx,
  job: { accountId: string; listId: string | null },
  rows: ValidRow[],
  now: Date,
): Promise<{ created: number; matched: number }> {
  if (rows.length === 0) return { created: 0, matched: 0 };
  const merged = mergeByEmail(rows);
  const at = now.toISOString();
  const result = await tx.execute(sql`
    with input as (
      select * from unnest(
        ${sql.param(merged.map(() => newId()))}::uuid[], ${sql.param(merged.map((row) => row.email))}::text[], ${sql.param(merged.map((row) => row.firstName))}::text[],
        ${sql.param(merged.map((row) => row.lastName))}::text[], ${sql.param(merged.map((row) => JSON.stringify(row.attributes)))}::text[]
      ) as t(id, email, first_name, last_name, attributes)
    ), upserted as (
      insert into contacts (id, account_id, email, first_name, last_name, attributes, created_at, updated_at)
      select id, ${job.accountId}::uuid, email, first_name, last_name, attributes::jsonb, ${at}::timestamptz, ${at}::timestamptz from input
      on conflict (account_id, email) do update set
        first_name = coalesce(excluded.first_name, contacts.first_name),
        last_name = coalesce(excluded.last_name, contacts.last_name),
        attributes = contacts.attributes || excluded.attributes,
        updated_at = excluded.updated_at
      returning id, (xmax = 0) as is_new
    ), joined as (
      insert into list_memberships (list_id, contact_id, account_id, subscription_status, created_at, updated_at)
      select ${job.listId}::uuid, id, ${job.accountId}::uuid, 'confirmed', ${at}::timestamptz, ${at}::timestamptz from upserted where ${job.listId}::uuid is not null
      on conflict (list_id, contact_id) do nothing
    )
    select (count(*) filter (where is_new))::int as created from upserted`);
  const [first] = (Array.isArray(result) ? result : (result as { rows: { created: number }[] }).rows) as {
    created: number;
  }[];
  return { created: Number(first?.created ?? 0), matched: rows.length };
}

/**
 * Commits a batch: its contacts, and the job's position, counts and kept errors, in one
 * transaction, so that a restart resumes right after it (no row twice, none lost). The update is
 * fenced by `locked_by`: a worker whose job was taken over writes nothing.
 */
export async function writeImportBatch(
  db: Db,
  job: { id: string; accountId: string; listId: string | null; workerId: string; leaseMs: number },
  batch: ImportBatch,
  now: Date,
): Promise<{ created: number; updated: number }> {
  return db.transaction(async (tx) => {
    const { created, matched } = await upsertContacts(tx, job, batch.rows, now);
    const updated = matched - created;
    const moved = await tx
      .update(contactImports)
      .set({
        rowsDone: batch.rowsDone,
        bytesDone: batch.bytesDone,
        createdCount: sql`${contactImports.createdCount} + ${created}`,
        updatedCount: sql`${contactImports.updatedCount} + ${updated}`,
        errorCount: sql`${contactImports.errorCount} + ${batch.errors.length}`,
        ...(batch.keptErrors.length
          ? { errors: sql`${contactImports.errors} || ${JSON.stringify(batch.keptErrors)}::jsonb` }
          : {}),
        leaseUntil: new Date(now.getTime() + job.leaseMs),
        updatedAt: now,
      })
      .where(and(eq(contactImports.id, job.id), eq(contactImports.lockedBy, job.workerId)))
      .returning({ id: contactImports.id });
    if (moved.length === 0) throw new ImportLeaseLostError('the import was taken over by another worker');
    return { created, updated };
  });
}
