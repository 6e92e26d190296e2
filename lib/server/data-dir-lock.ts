import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const lockPath = (dataDir: string) => path.join(dataDir, 'mailstead.lock');
export const controlSocketPath = (dataDir: string) => path.join(dataDir, 'mailstead.sock');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid holding the embedded database, or null when nobody (alive) does. */
export function lockHolder(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(lockPath(dataDir), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * PGlite allows one process per data directory. The lock file holds our pid; a lock left by a dead
 * process (SIGKILL, power loss) is taken over, a live one is not.
 */
export function acquireDataDirLock(dataDir: string): { release: () => void } | { heldBy: number } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = lockPath(dataDir);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return {
        release: () => {
          try {
            if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = lockHolder(dataDir);
      if (holder !== null && holder !== process.pid) return { heldBy: holder };
      try {
        unlinkSync(file);
      } catch {
        // another process removed it first; try again
      }
    }
  }
  const holder = lockHolder(dataDir);
  return { heldBy: holder ?? -1 };
}
