import { readdirSync } from 'node:fs';
import os from 'node:os';

/**
 * Lowers the calling worker thread's scheduling priority (on Linux a nice value is per thread):
 * when the cores are busy, the event loop (API requests, SMTP sessions, PGlite) goes first and the
 * thread's background work waits. Elsewhere, or where it is not allowed, they compete as equals.
 */
export function yieldToEventLoop() {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(10);
  } catch {
    // not allowed here
  }
}

/**
 * Lowers the whole process's scheduling priority by `steps` of nice (a cluster worker of the
 * delivering group, lib/server/plan-processes.ts), relative to where it was started, so that it stays
 * below its serving siblings: each of its threads already running (Linux keeps a nice value per
 * thread), and so the threads it starts later, which inherit it. 0 leaves it as it is.
 */
export function lowerProcessPriority(steps: number) {
  if (!(steps > 0) || process.platform !== 'linux') return;
  for (const thread of readdirSync('/proc/self/task')) {
    try {
      const id = Number(thread);
      os.setPriority(id, Math.min(19, os.getPriority(id) + steps));
    } catch {
      // not allowed here, or the thread has ended
    }
  }
}
