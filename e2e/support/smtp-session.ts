import net from 'node:net';

export type SmtpSession = {
  /** The first reply: the 220 greeting, or a 421 refusal. */
  greeting: Promise<string>;
  /** Sends one line and resolves with the whole reply to it (lines joined with "\n"). */
  send: (line: string) => Promise<string>;
  /** Every reply so far, the greeting first; one the server sent unasked (a 421) included. */
  replies: string[];
  /** Resolves once the server (or we) closed the connection. */
  closed: Promise<void>;
  isClosed: () => boolean;
  close: () => void;
};

/**
 * An SMTP connection held open by hand, for tests of what a listener does to connections over time
 * (silence, caps, unasked 421s); `localAddress` picks the loopback address it comes from (127.0.0.2).
 */
export function openSmtpSession(port: number, options: { localAddress?: string } = {}): SmtpSession {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: options.localAddress });
  const replies: string[] = [];
  const waiting: ((reply: string) => void)[] = [];
  let buffer = '';
  let isClosed = false;
  socket.on('error', () => {});
  socket.on('data', (data) => {
    buffer += data.toString('latin1');
    // A reply ends with a line whose code is followed by a space.
    let match: RegExpExecArray | null;
    while ((match = /(?:^|\r\n)\d{3} [^\r\n]*\r\n/.exec(buffer))) {
      const end = match.index + match[0].length;
      const reply = buffer.slice(0, end).split('\r\n').filter(Boolean).join('\n');
      buffer = buffer.slice(end);
      replies.push(reply);
      waiting.shift()?.(reply);
    }
  });
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      isClosed = true;
      resolve();
    }),
  );
  const next = () =>
    new Promise<string>((resolve, reject) => {
      waiting.push(resolve);
      void closed.then(() => reject(new Error(`connection closed; replies so far: ${JSON.stringify(replies)}`)));
    });
  const greeting = next();
  greeting.catch(() => {});
  return {
    greeting,
    replies,
    closed,
    isClosed: () => isClosed,
    send: (line) => {
      const reply = next();
      socket.write(`${line}\r\n`);
      return reply;
    },
    close: () => socket.destroy(),
  };
}
