import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Files we create from now on are readable and writable by our own user only. */
export function useOwnerOnlyUmask(): void {
  process.umask(0o077);
}

/** Creates `dir` (and its parents) if needed, and makes it 0700. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/**
 * Takes group and other permissions away from everything under `root`: directories become 0700,
 * files lose their group and other bits (0666 -> 0600). Symbolic links are not followed or changed.
 */
export function restrictToOwner(root: string): void {
  const stat = lstatSync(root, { throwIfNoEntry: false });
  if (!stat || stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    if ((stat.mode & 0o777) !== 0o700) chmodSync(root, 0o700);
    for (const name of readdirSync(root)) restrictToOwner(path.join(root, name));
  } else if ((stat.mode & 0o077) !== 0) {
    chmodSync(root, stat.mode & 0o700);
  }
}

/** What restrictToOwner would change under `root`: paths with group or other bits, with their modes. */
export function findOpenToOthers(root: string, limit = 20): { path: string; mode: number }[] {
  const found: { path: string; mode: number }[] = [];
  const walk = (file: string) => {
    if (found.length >= limit) return;
    const stat = lstatSync(file, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink() || stat.isSocket()) return;
    if ((stat.mode & 0o077) !== 0) found.push({ path: file, mode: stat.mode & 0o777 });
    if (stat.isDirectory()) for (const name of readdirSync(file)) walk(path.join(file, name));
  };
  walk(root);
  return found;
}
