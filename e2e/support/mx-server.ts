import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { freePort } from './server';

export type Behavior = 'accept' | 'stall' | { code: number; message: string; at?: 'rcpt' | 'data' };

export type ReceivedMail = {
  from: string;
  to: string[];
  raw: Buffer;
  parsed: ParsedMail;
  isSecure: boolean;
  heloName: string;
  user: string | null;
};

/**
 * A recipient's MX (or a relay) on loopback: a real SMTP server that records what it receives.
 * Each recipient can be given a queue of behaviours: accept, a refusal at RCPT or DATA, or a stall
 * (the data is read but never answered, as a server that hangs mid-transaction).
 */
export class TestMx {
  readonly received: ReceivedMail[] = [];
  readonly connections: { isSecure: boolean; heloName: string }[] = [];
  private readonly behaviors = new Map<string, Behavior[]>();
  private server!: SMTPServer;
  stalled = 0;
  port = 0;

  constructor(private readonly options: { auth?: { user: string; pass: string } } = {}) {}

  async start(): Promise<this> {
    this.port = await freePort();
    const auth = this.options.auth;
    this.server = new SMTPServer({
      authOptional: !auth,
      disabledCommands: auth ? [] : ['AUTH'],
      allowInsecureAuth: true,
      logger: false,
      size: 40 * 1024 * 1024,
      onAuth: (credentials, _session, callback) => {
        if (auth && credentials.username === auth.user && credentials.password === auth.pass)
          return callback(null, { user: credentials.username });
        callback(Object.assign(new Error('535 5.7.8 authentication failed'), { responseCode: 535 }));
      },
      onConnect: (_session, callback) => callback(),
      onMailFrom: (_address, session, callback) => {
        this.connections.push({ isSecure: Boolean(session.secure), heloName: session.hostNameAppearsAs });
        callback();
      },
      onRcptTo: (address, _session, callback) => {
        const next = this.peek(address.address);
        if (next && typeof next === 'object' && (next.at ?? 'rcpt') === 'rcpt') {
          this.take(address.address);
          return callback(Object.assign(new Error(next.message), { responseCode: next.code }));
        }
        callback();
      },
      onData: (stream, session, callback) => this.onData(stream, session, callback),
    });
    this.server.on('error', () => {});
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', () => resolve()));
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The next behaviours for one recipient, in order; after them, accept. */
  script(recipient: string, ...behaviors: Behavior[]): void {
    this.behaviors.set(recipient.toLowerCase(), behaviors);
  }

  for(recipient: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to.includes(recipient.toLowerCase()));
  }

  private peek(recipient: string): Behavior | undefined {
    return this.behaviors.get(recipient.toLowerCase())?.[0];
  }

  private take(recipient: string): Behavior | undefined {
    return this.behaviors.get(recipient.toLowerCase())?.shift();
  }

  private onData(stream: NodeJS.ReadableStream, session: SMTPServerSession, callback: (error?: Error | null) => void) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', async () => {
      const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
      const behavior = this.take(recipients[0]);
      if (behavior === 'stall') {
        this.stalled++;
        return; // never answer: the client waits for the reply to DATA
      }
      if (behavior && typeof behavior === 'object')
        return callback(Object.assign(new Error(behavior.message), { responseCode: behavior.code }));
      const raw = Buffer.concat(chunks);
      this.received.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        to: recipients,
        raw,
        parsed: await simpleParser(raw),
        isSecure: Boolean(session.secure),
        heloName: session.hostNameAppearsAs,
        user: (session.user as string | undefined) ?? null,
      });
      callback();
    });
  }
}
