import { yieldToEventLoop } from '@/lib/shared/thread-priority';
import { buildSignedMessage, type DkimSigning, type MessageSource, type SignedMessage } from './build-signed-message';
import { signDkimHead } from './sign-dkim';

/** A message to compose and sign, or (for a personalised shared encoding) only a header block to sign. */
export type MailTask =
  { source: MessageSource; dkim: DkimSigning } | { head: string; bodyHash: string; dkim: DkimSigning };

/**
 * A mail thread (started by mail-builder.ts through mail-thread.mjs): composes and signs the
 * messages it is handed, so that the delivery loop's thread only moves data.
 */
// A slower signature delays one delivery; a late API answer, every client waiting on it.
yieldToEventLoop();

export default function run(task: MailTask): Promise<SignedMessage> | string {
  return 'head' in task
    ? signDkimHead(task.head, task.bodyHash, task.dkim)
    : buildSignedMessage(task.source, task.dkim);
}
