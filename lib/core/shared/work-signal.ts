import { EventEmitter } from 'node:events';

/** The kinds of background work a verb can queue; each names one loop of the worker role (lib/workers/loops.ts). */
export type WorkKind = 'messages' | 'webhook-deliveries' | 'contact-imports' | 'contact-exports' | 'campaigns';

// In-process wake-up for the loop of a kind, so that fresh work starts without waiting for its
// poll. Other processes find it by polling; the database is the truth, this is a latency shortcut.
const signals = new EventEmitter();
signals.setMaxListeners(50);

/** Called by core verbs after they queue work of `kind` for now. */
export function signalWork(kind: WorkKind): void {
  signals.emit(kind);
}

export function onWork(kind: WorkKind, listener: () => void): () => void {
  signals.on(kind, listener);
  return () => signals.off(kind, listener);
}

let bulkQueueings = 0;

/**
 * Runs a bulk fan-out (a campaign's batches) with this process's delivery loop holding off new
 * claims: both want the same core, and mail already queued ahead of the campaign waits minutes
 * behind it anyway, so the few seconds of queueing go first. Other processes are not held.
 */
export async function whileQueueingInBulk<T>(work: () => Promise<T>): Promise<T> {
  bulkQueueings++;
  try {
    return await work();
  } finally {
    bulkQueueings--;
    if (bulkQueueings === 0) signalWork('messages');
  }
}

export function isQueueingInBulk(): boolean {
  return bulkQueueings > 0;
}
