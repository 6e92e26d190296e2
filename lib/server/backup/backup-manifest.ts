import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { MIGRATIONS_FOLDER } from '@/lib/db/client';
import { PROJECT_ROOT } from '../dashboard';

export const BACKUP_FORMAT = 'mailstead-backup';
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_ENTRY = 'manifest.json';
/** A manifest is a few hundred bytes; anything near this is not one of ours. */
export const MAX_MANIFEST_BYTES = 64 * 1024;

export const DUMP_ENTRY = { pglite: 'database.tar', postgres: 'database.pgdump' } as const;

const migrationSchema = z.object({
  /** drizzle's record of the migration: its folder time (when it was generated) and SQL hash. */
  id: z.number().int().nonnegative(),
  hash: z.string().max(128),
  name: z.string().max(200).nullable(),
});

/** The first entry of every backup: what it holds and what restoring it needs. */
export const backupManifestSchema = z.strictObject({
  format: z.literal(BACKUP_FORMAT),
  format_version: z.literal(BACKUP_FORMAT_VERSION),
  mailstead_version: z.string().max(50),
  database: z.enum(['pglite', 'postgres']),
  database_version: z.string().max(300),
  migration: migrationSchema,
  master_key_fingerprint: z.string().regex(/^[0-9a-f]{32}$/),
  created_at: z.iso.datetime(),
  dump: z.strictObject({
    entry: z.enum([DUMP_ENTRY.pglite, DUMP_ENTRY.postgres]),
    bytes: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
});

export type BackupManifest = z.infer<typeof backupManifestSchema>;
export type BackupMigration = z.infer<typeof migrationSchema>;

export function mailsteadVersion(): string {
  return (JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The migrations this code ships, by drizzle id (folder time), with their names from the journal. */
export function shippedMigrations(): { id: number; name: string }[] {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number; tag: string }[];
  };
  return journal.entries.map((entry) => ({ id: entry.when, name: entry.tag }));
}

/** How a person reads a migration: its name, or its id when this code does not know it. */
export const migrationLabel = (migration: BackupMigration) => migration.name ?? `#${migration.id}`;
