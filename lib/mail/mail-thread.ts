import { yieldToEventLoop } from '@/lib/shared/thread-priority';
import { buildSignedMessage, type DkimSigning, type MessageSource } from './build-signed-message';

/**
 * A mail thread (started by mail-builder.ts through mail-thread.mjs): composes and signs the
 * messages it is handed, so that the delivery loop's thread only moves data.
 */
// A slower signature delays one delivery; a late API answer, every client waiting on it.
yieldToEventLoop();

export default function run(task: { source: MessageSource; dkim: DkimSigning }) {
  return buildSignedMessage(task.source, task.dkim);
}
