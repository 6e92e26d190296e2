import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_FOLDER, type Db } from '@/lib/db/client';
import { pgliteOptions } from '@/lib/db/pglite-options';
import * as schema from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';

/** An in-memory PGlite with every migration applied, for tests of code that writes SQL. */
export async function openMemoryDatabase(): Promise<Db> {
  const db = drizzle({ client: new PGlite(pgliteOptions()), schema }) as unknown as Db;
  await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  return db;
}

/** A queued message row, held by `lockedBy` (with a lease) or by nobody. */
export function queuedMessage(lockedBy: string | null, fields: Partial<typeof schema.messages.$inferInsert> = {}): typeof schema.messages.$inferInsert {
  const now = Date.now();
  return {
    id: newId(),
    accountId: '00000000-0000-4000-8000-000000000001',
    domainId: '00000000-0000-4000-8000-000000000002',
    contentId: '00000000-0000-4000-8000-000000000003',
    messageIdHeader: `<${newId()}@x.example>`,
    sender: 'a@x.example',
    recipient: 'b@y.example',
    recipientDomain: 'y.example',
    senderDomain: 'x.example',
    status: 'queued',
    firstAttemptAt: new Date(now),
    nextAttemptAt: new Date(now),
    expiresAt: new Date(now + 3600_000),
    returnPathToken: 't',
    retainUntil: new Date(now + 3600_000),
    leaseUntil: lockedBy ? new Date(now + 300_000) : null,
    lockedBy,
    ...fields,
  };
}
