import { EventEmitter } from 'node:events';

// In-process wake-up for the delivery worker, so that fresh mail leaves without waiting for the next
// poll. Other processes find it by polling; this is only a latency shortcut.
const signals = new EventEmitter();
signals.setMaxListeners(50);

export function signalMessagesQueued(): void {
  signals.emit('queued');
}

export function onMessagesQueued(listener: () => void): () => void {
  signals.on('queued', listener);
  return () => signals.off('queued', listener);
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
    if (bulkQueueings === 0) signalMessagesQueued();
  }
}

export function isQueueingInBulk(): boolean {
  return bulkQueueings > 0;
}
