import { EventEmitter } from 'node:events';

// In-process wake-up for the webhook dispatcher when a verb queues a delivery for now (trigger, send
// again). Deliveries written by the fan-out trigger are found by polling (WEBHOOK_POLL_MS).
const signals = new EventEmitter();
signals.setMaxListeners(50);

export function signalWebhookDeliveriesQueued(): void {
  signals.emit('queued');
}

export function onWebhookDeliveriesQueued(listener: () => void): () => void {
  signals.on('queued', listener);
  return () => signals.off('queued', listener);
}
