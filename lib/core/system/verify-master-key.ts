import { eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { settings } from '@/lib/db/schema';

const FINGERPRINT_KEY = 'master_key_fingerprint';

export class MasterKeyMismatchError extends Error {}

/**
 * The first process stores the master key's fingerprint; every later one must match it, so that a
 * process started with the wrong MAILSTEAD_SECRET refuses to run instead of writing unreadable secrets.
 */
export async function verifyMasterKey(db: Db, fingerprint: string): Promise<void> {
  await db.insert(settings).values({ key: FINGERPRINT_KEY, value: fingerprint }).onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, FINGERPRINT_KEY));
  if (row.value !== fingerprint) {
    throw new MasterKeyMismatchError(
      "the master key does not match the one this database was created with (check MAILSTEAD_SECRET, or the data directory's master.key)",
    );
  }
}
