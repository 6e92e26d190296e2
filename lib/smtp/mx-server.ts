import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import type { Services } from '@/lib/core/context';
import { unsafeCheckInboundRecipient, type InboundRecipient } from '@/lib/core/inbound/check-inbound-recipient';
import { unsafeReceiveInboundMail, type InboundMail } from '@/lib/core/inbound/receive-inbound-mail';
import { createSessionLoggers } from './session-loggers';
import { smtpError } from './smtp-reply';

// The contract gives no inbound limit: 25 MB as common MX hosts have it; 100 RCPT as RFC 5321 4.5.3.1.8 asks us to take.
export const MX_MAX_MESSAGE_BYTES = 25 * 1024 * 1024;
export const MX_MAX_RECIPIENTS = 100;
const IDLE_TIMEOUT_MS = 60_000;
const MAX_CLIENTS = 200;

export type MxServerOptions = {
  services: Services;
  port: number;
  hostname: string;
  tls: { cert: string; key: string };
  idleTimeoutMs?: number;
  maxMessageBytes?: number;
};

type Accepted = InboundMail['recipients'][number];

/** The SMTP answer for a recipient the core check refused. */
function refusal(decision: Exclude<InboundRecipient, Accepted>): Error {
  switch (decision.kind) {
    case 'invalid':
      return smtpError(553, `5.1.3 ${decision.reason}`);
    case 'no_such_user':
      return smtpError(550, `5.1.1 <${decision.address}>: no such user here`);
    case 'relay_denied':
      return smtpError(550, `5.7.1 <${decision.address}>: relay access denied`);
  }
}

/**
 * Inbound SMTP for route domains and return-path hosts. It only speaks SMTP: which recipients are
 * ours (check-inbound-recipient.ts) and what a received message does (receive-inbound-mail.ts) are
 * core's. STARTTLS with the HTTPS certificate, optional for senders as MX-to-MX TLS is; no AUTH (we
 * relay for nobody). 250 only once the message is durable; a failure is 451, so the sender retries.
 */
export async function startMxServer(options: MxServerOptions): Promise<{ port: number; close: () => Promise<void> }> {
  const { services } = options;
  const maxBytes = options.maxMessageBytes ?? MX_MAX_MESSAGE_BYTES;
  // The recipients accepted in each session's current transaction, with what core decided for them.
  const accepted = new Map<string, Accepted[]>();
  const loggers = createSessionLoggers(services.logger, 'mx');

  const server = new SMTPServer({
    name: options.hostname,
    banner: 'Mailstead ESMTP MX',
    secure: false,
    key: options.tls.key,
    cert: options.tls.cert,
    disabledCommands: ['AUTH'],
    authOptional: true,
    size: maxBytes,
    maxRecipients: MX_MAX_RECIPIENTS,
    maxClients: MAX_CLIENTS,
    socketTimeout: options.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
    logger: false,
    disableReverseLookup: true,

    onConnect(session, callback) {
      loggers.open(session).debug({ remoteAddress: session.remoteAddress }, 'smtp session opened');
      callback();
    },

    onClose(session) {
      loggers.of(session).debug('smtp session closed');
      accepted.delete(session.id);
      loggers.close(session);
    },

    onMailFrom(_address, session, callback) {
      accepted.set(session.id, []);
      callback();
    },

    onRcptTo(address, session, callback) {
      unsafeCheckInboundRecipient(services.db, address.address)
        .then((decision) => {
          if (decision.kind !== 'route' && decision.kind !== 'return_path') {
            loggers.of(session).debug({ recipient: address.address, decision: decision.kind }, 'mx recipient refused');
            return callback(refusal(decision));
          }
          const list = accepted.get(session.id) ?? [];
          list.push(decision);
          accepted.set(session.id, list);
          callback();
        })
        .catch((error: unknown) => {
          loggers.of(session).error({ err: error }, 'mx recipient check failed');
          callback(smtpError(451, '4.3.0 temporary failure, try again later'));
        });
    },

    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (!stream.sizeExceeded) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (stream.sizeExceeded) return callback(smtpError(552, `5.3.4 Message exceeds the maximum size of ${maxBytes} bytes`));
        // A recipient that passed twice (RCPT repeated) is received once.
        const recipients = [...new Map((accepted.get(session.id) ?? []).map((recipient) => [recipient.address, recipient])).values()];
        const mail = { sender: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', recipients, raw: Buffer.concat(chunks) };
        const logger = loggers.of(session);
        unsafeReceiveInboundMail({ ...services, logger }, mail)
          .then(() => {
            logger.debug({ sender: mail.sender, recipients: recipients.length, bytes: mail.raw.length }, 'mx message accepted');
            callback(null, '2.0.0 Ok: queued');
          })
          .catch((error: unknown) => {
            logger.error({ err: error }, 'mx could not take a message');
            callback(smtpError(451, '4.3.0 temporary failure, try again later'));
          });
      });
    },
  });
  server.on('error', (error) => services.logger.warn({ err: error.message }, 'mx connection error'));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
