import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/** Every worker writes its heartbeat this often; one silent for STALE_AFTER_MS is dead wherever it runs. */
export const HEARTBEAT_MS = 5_000;
export const STALE_AFTER_MS = 30_000;

/** A row of `workers` as the liveness decision sees it: silence measured by the database's clock. */
export type WorkerSighting = { id: string; hostname: string; pid: number; silentMs: number };

/** Who is looking: this process's worker id, host identity and pid. */
export type Observer = { workerId: string; host: string; pid: number; isProcessAlive: (pid: number) => boolean };

/**
 * Whether a registered worker is gone, so that the messages it holds may be freed at once instead
 * of after their lease. The one place this is decided: silent for too long, or on this host (same
 * pid namespace) with a process that no longer exists, or whose pid is now ours.
 */
export function isWorkerDead(worker: WorkerSighting, observer: Observer): boolean {
  if (worker.id === observer.workerId) return false;
  if (worker.silentMs > STALE_AFTER_MS) return true;
  if (worker.hostname !== observer.host) return false;
  return worker.pid === observer.pid || !observer.isProcessAlive(worker.pid);
}

/**
 * The `hostname` a worker registers: pids compare only within one pid namespace, so the namespace
 * is part of it where Linux names one (containers sharing a hostname must not judge each other's pids).
 */
export function hostIdentity(): string {
  try {
    return `${hostname()} ${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return hostname();
  }
}

/** Signal 0 tests existence; EPERM means it exists under another user. A zombie is dead. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return true;
  }
}
