import { SMTPServer } from 'smtp-server';
import { freePort } from './server';

export const GMAIL_THROTTLING_REPLY =
  '4.7.28 [127.0.0.1] Our system has detected an unusual rate of unsolicited mail originating from your IP address.';

/**
 * A Gmail-like MX on loopback: while throttling, it answers `421 4.7.28` to every `throttleEvery`-th
 * recipient; otherwise it accepts, each DATA answered after `replyDelayMs` (so connections stay
 * busy). It samples its open connections every 50 ms: the concurrency the sender really used.
 */
export class ThrottlingMx {
  /** Message-ID -> how many copies were accepted. */
  readonly accepted = new Map<string, number>();
  readonly samples: { at: number; open: number }[] = [];
  throttled = 0;
  isThrottling = false;
  port = 0;
  private open = 0;
  private rcpts = 0;
  private server!: SMTPServer;
  private sampler: NodeJS.Timeout | null = null;

  constructor(private readonly options: { replyDelayMs: number; throttleEvery: number }) {}

  async start(): Promise<this> {
    this.port = await freePort();
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onConnect: (_session, callback) => {
        this.open++;
        callback();
      },
      onClose: () => {
        this.open--;
      },
      onRcptTo: (_address, _session, callback) => {
        if (this.isThrottling && ++this.rcpts % this.options.throttleEvery === 0) {
          this.throttled++;
          return callback(Object.assign(new Error(GMAIL_THROTTLING_REPLY), { responseCode: 421 }));
        }
        callback();
      },
      onData: (stream, _session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const head = Buffer.concat(chunks).toString('latin1').split('\r\n\r\n')[0];
          const messageId = /^Message-ID:\s*(<[^>\r\n]+>)/im.exec(head)?.[1] ?? `(none ${Date.now()})`;
          this.accepted.set(messageId, (this.accepted.get(messageId) ?? 0) + 1);
          setTimeout(callback, this.options.replyDelayMs);
        });
      },
    });
    this.server.on('error', () => {});
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', () => resolve()));
    this.sampler = setInterval(() => this.samples.push({ at: Date.now(), open: this.open }), 50);
    return this;
  }

  /** The most connections open at once between two moments (ms). */
  maxOpen(from: number, to = Date.now()): number {
    return Math.max(0, ...this.samples.filter((sample) => sample.at >= from && sample.at <= to).map((s) => s.open));
  }

  async stop(): Promise<void> {
    if (this.sampler) clearInterval(this.sampler);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
