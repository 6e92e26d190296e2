import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import { invalidInput } from '@/lib/shared/errors';
import { backupManifestSchema, MANIFEST_ENTRY, MAX_MANIFEST_BYTES, type BackupManifest } from './backup-manifest';

/**
 * Reads a backup file without extracting it: the manifest into memory (validated), the dump into
 * `stagingDir/dump` under that fixed name, whatever the archive calls it. Nothing in the archive
 * chooses a path on disk, so entries like ../../x, absolute paths and links write nothing anywhere.
 * A damaged, truncated or foreign file is refused; the dump's checksum is the manifest's.
 */
export async function readBackupArchive(
  file: string,
  stagingDir: string,
): Promise<{ manifest: BackupManifest; dumpFile: string }> {
  const damaged = (why: string) => invalidInput(`${file} is not a usable Mailstead backup: ${why}`);
  const dumpFile = path.join(stagingDir, 'dump');
  let manifestText: string | null = null;
  let manifest: BackupManifest | null = null;
  let problem: Error | null = null;
  let dump: { hash: ReturnType<typeof createHash>; bytes: number; done: Promise<void> } | null = null;

  const parser = new tar.Parser({
    strict: true,
    onReadEntry: (entry) => {
      const refuse = (error: Error) => {
        problem ??= error;
        entry.resume();
      };
      if (problem) return entry.resume();
      if (entry.type !== 'File')
        return refuse(damaged(`it holds a ${entry.type} entry (${entry.path}); a backup holds only files`));
      if (manifest === null && manifestText === null) {
        if (entry.path !== MANIFEST_ENTRY)
          return refuse(damaged(`its first entry is ${JSON.stringify(entry.path)}, not ${MANIFEST_ENTRY}`));
        if (entry.size > MAX_MANIFEST_BYTES)
          return refuse(damaged(`its manifest is ${entry.size} bytes (at most ${MAX_MANIFEST_BYTES})`));
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => chunks.push(chunk));
        entry.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          manifestText = text;
          try {
            manifest = parseManifest(text, damaged);
          } catch (error) {
            problem ??= error as Error;
          }
        });
        return;
      }
      if (!manifest) return refuse(damaged('its manifest is not valid'));
      const expected = (manifest as BackupManifest).dump;
      if (dump || entry.path !== expected.entry)
        return refuse(damaged(`it holds an unexpected entry ${JSON.stringify(entry.path)}`));
      // The header's size bounds what is read: a dump larger than the manifest says never reaches the disk.
      if (entry.size !== expected.bytes)
        return refuse(damaged(`its dump is ${entry.size} bytes, its manifest says ${expected.bytes}`));
      const out = createWriteStream(dumpFile, { mode: 0o600, flags: 'wx' });
      const hash = createHash('sha256');
      const started = { hash, bytes: 0, done: Promise.resolve() };
      entry.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        started.bytes += chunk.length;
      });
      started.done = pipeline(entry, out);
      dump = started;
    },
  });
  try {
    await pipeline(createReadStream(file), parser);
    await (dump as { done: Promise<void> } | null)?.done;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw invalidInput(`${file} does not exist`);
    if (problem) throw problem;
    throw damaged(`it cannot be read (${(error as Error).message}): the file is damaged or truncated`);
  }
  if (problem) throw problem;
  if (manifestText === null) throw damaged('it holds no manifest');
  const read = manifest as BackupManifest | null;
  if (!read) throw damaged('its manifest is not valid');
  if (!dump) throw damaged(`it holds no ${read.dump.entry}: the file is truncated`);
  const written = dump as { hash: ReturnType<typeof createHash>; bytes: number };
  if (written.bytes !== read.dump.bytes || written.hash.digest('hex') !== read.dump.sha256) {
    throw damaged(
      `the dump's checksum does not match its manifest (${written.bytes} of ${read.dump.bytes} bytes read): the file is damaged or truncated`,
    );
  }
  return { manifest: read, dumpFile };
}

function parseManifest(text: string, damaged: (why: string) => Error): BackupManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw damaged('its manifest is not JSON');
  }
  const parsed = backupManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw damaged(`its manifest is not valid (${issue.path.join('.') || 'manifest'}: ${issue.message})`);
  }
  return parsed.data;
}
