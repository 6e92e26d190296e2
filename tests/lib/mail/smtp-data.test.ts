import DataStream from 'nodemailer/lib/smtp-connection/data-stream';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeSmtpData } from '@/lib/mail/smtp-data';
import { SmtpPool } from '@/lib/mail/smtp-pool';

/** What nodemailer's own DATA encoder (a byte loop) makes of the same bytes: the reference. */
async function nodemailerEncoding(raw: Buffer): Promise<Buffer> {
  const stream = new DataStream();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  stream.end(raw);
  await ended;
  return Buffer.concat(chunks);
}

const CASES: Record<string, string | Buffer> = {
  'a line starting with a dot': 'Subject: x\r\n\r\n.hidden\r\nnext\r\n',
  'a dot as the first byte': '.first\r\nline\r\n',
  'the end marker inside the body': 'Subject: x\r\n\r\nbefore\r\n.\r\nafter\r\n',
  'two dots': 'a\r\n..\r\n...\r\n',
  'bare LF line breaks': 'Subject: x\n\n.dot\nline\n',
  'bare CR, and a dot after it': 'a\rb\r.c\r\n',
  'mixed CRLF and LF': 'a\r\nb\n.c\r\n.d\n',
  '8-bit bytes': Buffer.from('Subject: caf\xe9\r\n\r\n.\xff\xfe\r\n\xe2\x82\xac\r\n', 'latin1'),
  'no line break at the end': 'Subject: x\r\n\r\nlast line',
  'ending with a dot line, no CRLF': 'Subject: x\r\n\r\n.',
  'ending with a bare CR': 'Subject: x\r\n\r\nend\r',
  'ending with a bare LF': 'end\n',
  nothing: '',
  'only a line break': '\r\n',
};

describe('encodeSmtpData', () => {
  for (const [name, input] of Object.entries(CASES)) {
    it(`gives the bytes nodemailer gives: ${name}`, async () => {
      const raw = Buffer.isBuffer(input) ? input : Buffer.from(input);
      expect(encodeSmtpData(raw).toString('latin1')).toBe((await nodemailerEncoding(raw)).toString('latin1'));
    });
  }

  it('stuffs the dots and ends the data as RFC 5321 says', () => {
    const encoded = encodeSmtpData(Buffer.from('Subject: x\r\n\r\n.\r\n..two\r\nend'));
    expect(encoded.toString()).toBe('Subject: x\r\n\r\n..\r\n...two\r\nend\r\n.\r\n');
  });

  it('gives the bytes nodemailer gives for 3,000 random messages of line breaks, dots and 8-bit bytes', async () => {
    const alphabet = [0x0d, 0x0a, 0x2e, 0x61, 0xff, 0x00, 0x20];
    let seed = 35;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 3000; run++) {
      const raw = Buffer.from(
        Array.from({ length: Math.floor(random() * 40) }, () => alphabet[Math.floor(random() * alphabet.length)]),
      );
      // As they come, with CRLF only, and with bare LF only (the line breaks a text part often has).
      const text = raw.toString('latin1');
      const input = [
        raw,
        Buffer.from(text.replace(/\r|\n/g, '\r\n'), 'latin1'),
        Buffer.from(text.replace(/\r/g, ''), 'latin1'),
      ][run % 3];
      expect(encodeSmtpData(input).toString('hex'), input.toString('hex')).toBe(
        (await nodemailerEncoding(input)).toString('hex'),
      );
    }
  });
});

describe('SmtpPool sends the encoded data', () => {
  const servers: SMTPServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  });

  it('delivers dot lines, the end marker in the body and 8-bit bytes as they were, the size reported', async () => {
    const received: Buffer[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => (received.push(Buffer.concat(chunks)), callback()));
      },
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as { port: number }).port;
    const pool = new SmtpPool([{ host: 'mx.test', address: '127.0.0.1', port, secure: false }], {
      ehloName: 'client.test',
      maxConnections: 1,
      timeoutMs: 5000,
    });
    const messages = [
      Buffer.from('Subject: one\r\n\r\n.leading dot\r\n.\r\nafter the marker\r\n'),
      Buffer.from('Subject: two\r\n\r\ncaf\xe9\r\nno final line break', 'latin1'),
    ];
    const dataSent: number[] = [];
    try {
      for (const [index, raw] of messages.entries()) {
        const result = await pool.send({ from: 'a@sender.test', to: 'b@mx.test' }, raw, {
          onDataSent: () => dataSent.push(index),
          settle: async (settled) => settled,
        });
        expect(result.kind).toBe('accepted');
      }
    } finally {
      pool.close();
    }
    expect(dataSent).toEqual([0, 1]);
    expect(received[0].toString()).toBe(messages[0].toString());
    // The receiver sees the line the message ended without ended by the CRLF of the end marker.
    expect(received[1].toString('latin1')).toBe(`${messages[1].toString('latin1')}\r\n`);
  });
});
