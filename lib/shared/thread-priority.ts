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
