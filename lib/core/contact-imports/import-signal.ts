import { EventEmitter } from 'node:events';

// In-process wake-up for the import worker, so that an upload starts at once instead of at the next
// poll. Other processes find it by polling; this is only a latency shortcut.
const signals = new EventEmitter();
signals.setMaxListeners(50);

export function signalContactImportQueued(): void {
  signals.emit('queued');
}

export function onContactImportQueued(listener: () => void): () => void {
  signals.on('queued', listener);
  return () => signals.off('queued', listener);
}
