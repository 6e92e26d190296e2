import { SMTPServer } from 'smtp-server';
import { freePort } from './server';

/**
 * A recipient's MX on loopback that notes the Message-ID and recipient of each message it accepts,
 * without parsing MIME: cheap enough for the thousands of messages of a crash test. A message is
 * noted before the reply to its DATA goes out, as a real MX commits before it answers.
 */
export class CountingMx {
  /** Message-ID -> its recipient and the times (ms) each copy was accepted. */
  readonly accepted = new Map<string, { recipient: string; at: number[] }>();
  /** Connected sessions: a killed sender can leave at most one accepted-but-unrecorded message in each. */
  readonly openSessions = new Set<string>();
  private server!: SMTPServer;
  private gate: Promise<void> | null = null;
  private openGate: (() => void) | null = null;
  port = 0;

  /** `replyDelayMs`: how long each DATA waits for its reply (a slow receiver keeps deliveries in flight). */
  constructor(private readonly options: { replyDelayMs?: number } = {}) {}

  async start(): Promise<this> {
    this.port = await freePort();
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onConnect: (session, callback) => {
        this.openSessions.add(session.id);
        callback();
      },
      onClose: (session) => this.openSessions.delete(session.id),
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          // Held: the message waits (unrecorded, unanswered) until release().
          void (this.gate ?? Promise.resolve()).then(() => {
            const raw = Buffer.concat(chunks).toString('latin1');
            const head = raw.slice(0, raw.indexOf('\r\n\r\n') + 1 || raw.length);
            const messageId = /^Message-ID:\s*(<[^>\r\n]+>)/im.exec(head)?.[1] ?? `(none ${session.id} ${Date.now()})`;
            const entry = this.accepted.get(messageId) ?? {
              recipient: session.envelope.rcptTo[0]?.address.toLowerCase() ?? '',
              at: [],
            };
            entry.at.push(Date.now());
            this.accepted.set(messageId, entry);
            if (this.options.replyDelayMs) setTimeout(callback, this.options.replyDelayMs);
            else callback();
          });
        });
      },
    });
    this.server.on('error', () => {});
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', () => resolve()));
    return this;
  }

  /** Accepts nothing until release(): the senders' connections wait in DATA. */
  hold(): void {
    this.gate = new Promise((resolve) => (this.openGate = resolve));
  }

  release(): void {
    this.openGate?.();
    this.gate = null;
  }

  async stop(): Promise<void> {
    this.release();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** How many copies of a message each recipient that `matches` picks was sent (one per recipient when nothing is duplicated). */
  copiesByRecipient(matches: (recipient: string) => boolean): Map<string, number> {
    const copies = new Map<string, number>();
    for (const { recipient, at } of this.accepted.values()) {
      if (matches(recipient)) copies.set(recipient, (copies.get(recipient) ?? 0) + at.length);
    }
    return copies;
  }

  /** When each copy of the messages that `matches` picks was accepted (ms). */
  acceptedTimes(matches: (recipient: string) => boolean): number[] {
    return [...this.accepted.values()].filter(({ recipient }) => matches(recipient)).flatMap(({ at }) => at);
  }

  /** Distinct messages, and those accepted more than once, among recipients that `matches` picks. */
  count(matches: (recipient: string) => boolean): { distinct: number; duplicated: string[]; copies: number } {
    let distinct = 0;
    let copies = 0;
    const duplicated: string[] = [];
    for (const [messageId, { recipient, at }] of this.accepted) {
      if (!matches(recipient)) continue;
      distinct++;
      copies += at.length;
      if (at.length > 1) duplicated.push(messageId);
    }
    return { distinct, duplicated, copies };
  }
}
