import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_FOLDER, type Db } from '@/lib/db/client';
import { pgliteOptions } from '@/lib/db/pglite-options';
import * as schema from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';

/**
 * A migrated database, kept as a PGlite data-dir dump named by the migrations' contents: loading it
 * takes under a second where a new database and its migrations took 3-6 s, once per test file.
 */
function migratedDumpPath(): string {
  // The PGlite version too: a dump is only read back by the version that wrote it.
  const hash = createHash('sha256').update(
    readFileSync(path.join(process.cwd(), 'node_modules/@electric-sql/pglite/package.json')),
  );
  for (const file of readdirSync(MIGRATIONS_FOLDER, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort()) {
    hash.update(file).update(readFileSync(file));
  }
  return path.join(tmpdir(), `mailstead-test-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** An in-memory PGlite with every migration applied, for tests of code that writes SQL. */
export async function openMemoryDatabase(): Promise<Db> {
  const dumpPath = migratedDumpPath();
  if (existsSync(dumpPath)) {
    const client = new PGlite({ ...pgliteOptions(), loadDataDir: new Blob([readFileSync(dumpPath)]) });
    return drizzle({ client, schema }) as unknown as Db;
  }
  const client = new PGlite(pgliteOptions());
  const db = drizzle({ client, schema }) as unknown as Db;
  await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  // Written aside and renamed, so that test files opening at the same time never read half a dump.
  const partial = `${dumpPath}.${process.pid}.${newId()}`;
  writeFileSync(partial, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  renameSync(partial, dumpPath);
  return db;
}

/** A queued message row, held by `lockedBy` (with a lease) or by nobody. */
export function queuedMessage(
  lockedBy: string | null,
  fields: Partial<typeof schema.messages.$inferInsert> = {},
): typeof schema.messages.$inferInsert {
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
