import Piscina from 'piscina';
import {
  buildSignedMessage,
  withSignature,
  type DkimSigning,
  type MessageSource,
  type SignedMessage,
} from './build-signed-message';
import type { MailTask } from './mail-thread';

/** Composes and signs messages for the delivery loop, on its own thread or on a pool of threads. */
export type MailBuilder = {
  build(source: MessageSource, dkim: DkimSigning): Promise<SignedMessage>;
  close(): Promise<void>;
};

const THREAD_ENTRY = new URL('./mail-thread.mjs', import.meta.url).href;

/**
 * `threads` 0 builds on the event loop. Otherwise a pool of that many threads, at a lower priority
 * than the loop (mail-thread.ts), signs while the loop moves data and answers requests:
 * on PGlite, whose queries run on the loop too, RSA signing was a fifth of the loop's time.
 */
export function createMailBuilder(options: { threads: number }): MailBuilder {
  if (options.threads === 0) return { build: buildSignedMessage, close: async () => {} };
  const pool = new Piscina<MailTask, SignedMessage | string>({
    filename: THREAD_ENTRY,
    minThreads: options.threads,
    maxThreads: options.threads,
    // Signing is asynchronous (a stream): one task at a time left a thread waiting between its turns,
    // and measured half again slower than the event loop; 16 at a time signed as fast.
    concurrentTasksPerWorker: 16,
    // Threads start with none of the server's environment (they need none, and it holds secrets).
    env: {},
    execArgv: [],
  });
  let isClosed = false;
  return {
    async build(source, dkim) {
      if (isClosed) throw new Error('the mail builder is closed');
      // Only the header block crosses, and a signature line comes back: the body stays here, and
      // its hash was computed once for every recipient sharing it (render-message.ts).
      if ('personalized' in source) {
        const { head, bodyHash } = source.personalized;
        return { raw: withSignature((await pool.run({ head, bodyHash, dkim })) as string, source.personalized) };
      }
      const signed = (await pool.run({ source, dkim })) as SignedMessage;
      return 'raw' in signed
        ? { raw: Buffer.from(signed.raw.buffer, signed.raw.byteOffset, signed.raw.byteLength) }
        : signed;
    },
    close() {
      isClosed = true;
      return pool.destroy();
    },
  };
}
