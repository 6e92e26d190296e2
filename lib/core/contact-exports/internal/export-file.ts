import { mkdir, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CoreConfig } from '@/lib/core/config';
import { isUuid } from '@/lib/shared/ids';

/** Where export files live: DATA_DIR/exports (lib/server/config-settings.ts); a temporary folder in unit tests. */
export const exportsDirOf = (config: Pick<CoreConfig, 'exportsDir'>) =>
  config.exportsDir ?? path.join(tmpdir(), 'mailstead-exports');

/**
 * An export's file, named only from its id (a UUID we generated, checked again here): no input
 * ever reaches a path. The worker writes `<id>.<attempt>.csv.part` and renames it when the file is whole.
 */
export function exportFilePaths(config: Pick<CoreConfig, 'exportsDir'>, exportId: string) {
  if (!isUuid(exportId)) throw new Error(`not an export id: ${exportId}`);
  const base = path.join(exportsDirOf(config), exportId.toLowerCase());
  return {
    final: `${base}.csv`,
    name: `${exportId.toLowerCase()}.csv`,
    partialOf: (attempt: number) => `${base}.${attempt}.csv.part`,
  };
}

export async function ensureExportsDir(config: Pick<CoreConfig, 'exportsDir'>): Promise<void> {
  await mkdir(exportsDirOf(config), { recursive: true, mode: 0o700 });
}

/** Deletes an export's files: the whole one, or any attempt's partial one (`.part`) when `onlyPartials`. */
export async function removeExportFiles(
  config: Pick<CoreConfig, 'exportsDir'>,
  exportId: string,
  options: { onlyPartials?: boolean } = {},
): Promise<void> {
  const dir = exportsDirOf(config);
  const prefix = `${exportFilePaths(config, exportId).name.slice(0, -'.csv'.length)}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  const doomed = names.filter(
    (name) => name.startsWith(prefix) && (name.endsWith('.part') || (!options.onlyPartials && name.endsWith('.csv'))),
  );
  await Promise.all(doomed.map((name) => rm(path.join(dir, name), { force: true })));
}
