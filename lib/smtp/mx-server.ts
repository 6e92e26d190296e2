import type { Socket } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerOptions } from 'smtp-server';
import type { Services } from '@/lib/core/context';
import type { InboundMessageRefusal } from '@/lib/core/inbound/internal/check-inbound-message';
import { unsafeCheckInboundRecipient, type InboundRecipient } from '@/lib/core/inbound/check-inbound-recipient';
import { unsafeReceiveInboundMail, type InboundMail } from '@/lib/core/inbound/receive-inbound-mail';
import { isDatabaseUnavailable } from '@/lib/shared/database-unavailable';
import {
  createClientConnectionGuard,
  type ClientConnectionGuard,
  type ClientConnectionLimits,
} from './client-connection-guard';
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
  /** Per client address (MX_MAX_CONNECTIONS_PER_CLIENT, MX_GREETING_TIMEOUT_SECONDS). */
  limits: ClientConnectionLimits;
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

/** The SMTP answer for a message core refused to read: permanent, as the same bytes fail every retry. */
function messageRefusal(refused: InboundMessageRefusal): Error {
  switch (refused.kind) {
    case 'header_too_large':
      return smtpError(552, `5.3.4 ${refused.reason}`);
    case 'too_complex':
      return smtpError(554, `5.6.0 ${refused.reason}`);
    case 'too_many_hops':
      return smtpError(554, `5.4.6 ${refused.reason}`);
  }
}

/** A failure of core while the sender waits: always temporary, so the sender keeps the mail and retries. */
function temporaryFailure(logger: Services['logger'], error: unknown, doing: string): Error {
  if (isDatabaseUnavailable(error)) logger.warn({ err: error }, `mx ${doing}: the database is unavailable`);
  else logger.error({ err: error }, `mx ${doing} failed`);
  return smtpError(451, '4.3.0 temporary failure, try again later');
}

/** smtp-server with the per-client limits checked on the raw socket, before a session (and a maxClients slot) exists. */
class GuardedSmtpServer extends SMTPServer {
  constructor(
    options: SMTPServerOptions,
    private readonly guard: ClientConnectionGuard,
  ) {
    super(options);
  }

  override connect(socket: Socket, socketOptions?: Parameters<SMTPServer['connect']>[1]): void {
    if (this.guard.admit(socket)) super.connect(socket, socketOptions);
  }
}

/**
 * Inbound SMTP for route domains and return-path hosts. It only speaks SMTP: which recipients are
 * ours (check-inbound-recipient.ts) and what a received message does (receive-inbound-mail.ts) are
 * core's. STARTTLS with the HTTPS certificate, optional for senders as MX-to-MX TLS is; no AUTH (we
 * relay for nobody). 250 only once the message is durable; a failure is 451, so the sender retries;
 * a message over core's limits (check-inbound-message.ts) is refused for good. One client address
 * holds at most `limits.connectionsPerClient` of the MAX_CLIENTS connections.
 */
export async function startMxServer(options: MxServerOptions): Promise<{ port: number; close: () => Promise<void> }> {
  const { services } = options;
  const maxBytes = options.maxMessageBytes ?? MX_MAX_MESSAGE_BYTES;
  // The recipients accepted in each session's current transaction, with what core decided for them.
  const accepted = new Map<string, Accepted[]>();
  const loggers = createSessionLoggers(services.logger, 'mx');

  const serverOptions: SMTPServerOptions = {
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
      unsafeCheckInboundRecipient(services.db, address.address, services.config.mailHostname)
        .then((decision) => {
          if (decision.kind !== 'route' && decision.kind !== 'return_path' && decision.kind !== 'report') {
            loggers.of(session).debug({ recipient: address.address, decision: decision.kind }, 'mx recipient refused');
            return callback(refusal(decision));
          }
          const list = accepted.get(session.id) ?? [];
          list.push(decision);
          accepted.set(session.id, list);
          callback();
        })
        .catch((error: unknown) => callback(temporaryFailure(loggers.of(session), error, 'recipient check')));
    },

    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (!stream.sizeExceeded) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (stream.sizeExceeded)
          return callback(smtpError(552, `5.3.4 Message exceeds the maximum size of ${maxBytes} bytes`));
        // A recipient that passed twice (RCPT repeated) is received once.
        const recipients = [
          ...new Map((accepted.get(session.id) ?? []).map((recipient) => [recipient.address, recipient])).values(),
        ];
        const mail = {
          sender: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          recipients,
          raw: Buffer.concat(chunks),
        };
        const logger = loggers.of(session);
        unsafeReceiveInboundMail({ ...services, logger }, mail)
          .then((outcome) => {
            if (outcome.kind !== 'received') {
              logger.info(
                { sender: mail.sender, bytes: mail.raw.length, refusal: outcome.kind, reason: outcome.reason },
                'mx message refused',
              );
              return callback(messageRefusal(outcome));
            }
            logger.debug(
              { sender: mail.sender, recipients: recipients.length, bytes: mail.raw.length },
              'mx message accepted',
            );
            callback(null, '2.0.0 Ok: queued');
          })
          .catch((error: unknown) => callback(temporaryFailure(logger, error, 'taking a message')));
      });
    },
  };
  const server = new GuardedSmtpServer(
    serverOptions,
    createClientConnectionGuard(options.limits, options.hostname, services.logger),
  );
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
