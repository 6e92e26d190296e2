import { EventEmitter } from 'node:events';

// In-process nudge: the campaign worker in this process starts at once instead of at its next poll.
// Other processes find the work at their poll; the database is the source of truth.
const emitter = new EventEmitter();

export function signalCampaignWork(): void {
  emitter.emit('work');
}

export function onCampaignWork(listener: () => void): () => void {
  emitter.on('work', listener);
  return () => emitter.off('work', listener);
}
