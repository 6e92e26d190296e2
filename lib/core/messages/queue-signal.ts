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
