import { createHash } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  linkSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import { conflict } from '@/lib/shared/errors';
import { MANIFEST_ENTRY, type BackupManifest } from './backup-manifest';

/** The size and SHA-256 of a staged dump, read back from disk: what the manifest vouches for. */
export async function describeDump(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return { bytes: statSync(file).size, sha256: hash.digest('hex') };
}

/**
 * The backup file: a gzipped tar of manifest.json, then the dump, both staged in `stagingDir`. It is
 * written beside the target and moved into place whole, mode 0600, so a failed backup leaves no
 * half file and an existing one is replaced only with `force`.
 */
export async function writeBackupArchive(
  stagingDir: string,
  manifest: BackupManifest,
  target: string,
  options: { force: boolean },
): Promise<{ bytes: number }> {
  writeFileSync(path.join(stagingDir, MANIFEST_ENTRY), JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
  const staged = path.join(stagingDir, 'backup.tar.gz');
  const pack = tar.c({ gzip: true, cwd: stagingDir, portable: true }, [MANIFEST_ENTRY, manifest.dump.entry]);
  await pipeline(pack, createWriteStream(staged, { mode: 0o600, flags: 'wx' }));
  if (options.force) {
    renameSync(staged, target);
  } else {
    try {
      // link() fails when the target exists, where a check followed by rename() could race.
      linkSync(staged, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw refuseOverwrite(target);
      throw error;
    } finally {
      unlinkSync(staged);
    }
  }
  return { bytes: statSync(target).size };
}

export const refuseOverwrite = (target: string) =>
  conflict(`${target} already exists: choose another file, or pass --force to replace it`);
