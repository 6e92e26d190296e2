import { PGlite } from '@electric-sql/pglite';
import { pgliteOptions } from './pglite-options';

/**
 * Unpacks a dumpDataDir tarball (`mailstead restore`) into `dir`, which must hold no database, and
 * reads back the master key fingerprint the restored database was written under.
 */
export async function loadPgliteDataDir(dir: string, tarball: Blob): Promise<{ masterKeyFingerprint: string | null }> {
  const client = await PGlite.create({ ...pgliteOptions(dir), loadDataDir: tarball });
  try {
    const result = await client.query<{ value: string }>(
      `select value from settings where key = 'master_key_fingerprint'`,
    );
    return { masterKeyFingerprint: result.rows[0]?.value ?? null };
  } finally {
    await client.close();
  }
}
