import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Services } from '@/lib/core/context';
import { authorizeSmtpSender } from '@/lib/core/messages/authorize-smtp-sender';
import { submitSmtpMessage } from '@/lib/core/messages/submit-smtp-message';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import { shieldRefusal } from '@/lib/core/messages/reputation-shield';
import { isDatabaseUnavailable } from '@/lib/shared/database-unavailable';
import { decodeSubmission } from './decode-submission';
import {
  authenticateSmtpCredential,
  type AuthenticatedSmtpCredential,
} from '@/lib/core/smtp-credentials/authenticate-smtp-credential';
import { credentialPrincipal } from './credential-principal';
import { createSessionLoggers } from './session-loggers';
import { replyForError, smtpError } from './smtp-reply';

// The contract's limits (ahasend-contract.md 2.10).
export const MAX_RECIPIENTS = 50;
export const MAX_MESSAGE_BYTES = 20 * 1024 * 1024;
const MAX_MESSAGES_PER_CONNECTION = 10_000;
const IDLE_TIMEOUT_MS = 60_000;

export type SubmissionServerOptions = {
  services: Services;
  port: number;
  hostname: string;
  tls: { cert: string; key: string };
  /** TLS from the first byte (RFC 8314 implicit TLS, port 465) instead of STARTTLS. */
  isImplicitTls?: boolean;
  /** One token per message from the credential's bucket. */
  consumeRateLimit: (
    credentialId: string,
  ) => Promise<{ isAllowed: true } | { isAllowed: false; retryAfterSeconds: number }>;
  /** Failed AUTH per client address and per username, counted as the dashboard counts failed sign-ins (createSignInLimiter). */
  authLimiter: {
    attempt<T>(
      clientIp: string,
      username: string,
      check: () => Promise<T | null>,
    ): Promise<{ isRateLimited: true } | { isRateLimited: false; result: T | null }>;
  };
  idleTimeoutMs?: number;
};

type Session = SMTPServerSession & { user?: unknown };
const credentialOf = (session: Session) => session.user as AuthenticatedSmtpCredential;

/**
 * SMTP submission for SMTP credentials: STARTTLS (or implicit TLS) with the HTTPS certificate, AUTH
 * PLAIN or LOGIN only once the connection is encrypted (smtp-server answers 538 before), and nothing
 * accepted without AUTH (530 at MAIL and RCPT: no relay). 250 only once the message is durable.
 */
export async function startSubmissionServer(
  options: SubmissionServerOptions,
): Promise<{ port: number; close: () => Promise<void> }> {
  const { services } = options;
  const messagesByConnection = new Map<string, number>();
  const loggers = createSessionLoggers(services.logger, 'submission');
  const context = (session: Session) => ({
    ...services,
    logger: loggers.of(session),
    principal: credentialPrincipal(credentialOf(session), session.remoteAddress ?? null),
  });

  const server = new SMTPServer({
    name: options.hostname,
    banner: 'Mailstead ESMTP submission',
    secure: options.isImplicitTls ?? false,
    key: options.tls.key,
    cert: options.tls.cert,
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: false,
    authRequiredMessage: '5.7.0 Authentication required',
    size: MAX_MESSAGE_BYTES,
    maxRecipients: MAX_RECIPIENTS,
    socketTimeout: options.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
    logger: false,
    disableReverseLookup: true,

    onConnect(session, callback) {
      loggers
        .open(session)
        .debug(
          { remoteAddress: session.remoteAddress, isImplicitTls: options.isImplicitTls ?? false },
          'smtp session opened',
        );
      callback();
    },

    onAuth(auth, session, callback) {
      const logger = loggers.of(session);
      options.authLimiter
        .attempt(session.remoteAddress ?? 'unknown', auth.username ?? '', () =>
          authenticateSmtpCredential(services.db, auth.username ?? '', auth.password ?? ''),
        )
        .then((attempt) => {
          // Temporary, as Gmail's "454 4.7.0 Too many login attempts": a client with the right
          // password keeps its mail and retries later, instead of taking 535 for a wrong password.
          if (attempt.isRateLimited) {
            logger.info({ method: auth.method }, 'smtp authentication refused: too many failed attempts');
            return callback(smtpError(454, '4.7.0 Too many failed authentication attempts, try again later'));
          }
          const credential = attempt.result;
          if (!credential) {
            logger.info({ method: auth.method }, 'smtp authentication refused: invalid credentials');
            return callback(smtpError(535, '5.7.8 Authentication credentials invalid'));
          }
          if (credential.accountStatus !== 'active') {
            logger.info({ credentialId: credential.credentialId }, 'smtp authentication refused: account not active');
            return callback(smtpError(521, '5.7.1 Account is suspended'));
          }
          logger.debug({ credentialId: credential.credentialId }, 'smtp authenticated');
          callback(null, { user: credential });
        })
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'smtp authentication could not be checked');
          callback(replyForError(error));
        });
    },

    onClose(session) {
      loggers.of(session).debug({ messages: messagesByConnection.get(session.id) ?? 0 }, 'smtp session closed');
      messagesByConnection.delete(session.id);
      loggers.close(session);
    },

    onMailFrom(address, session, callback) {
      const count = (messagesByConnection.get(session.id) ?? 0) + 1;
      messagesByConnection.set(session.id, count);
      if (count > MAX_MESSAGES_PER_CONNECTION)
        return callback(smtpError(421, '4.7.0 Too many messages on this connection, reconnect'));
      const credential = credentialOf(session);
      options
        .consumeRateLimit(credential.credentialId)
        .then(async (decision) => {
          if (!decision.isAllowed)
            return callback(
              smtpError(
                451,
                `4.7.0 Rate limit exceeded for this credential, try again in ${decision.retryAfterSeconds} s`,
              ),
            );
          if (address.address !== '') await authorizeSmtpSender(context(session), { mail_from: address.address });
          callback();
        })
        .catch((error: unknown) => callback(replyForError(error)));
    },

    onRcptTo(address, session, callback) {
      const normalized = normalizeEmailAddress(address.address);
      if (!normalized.ok) return callback(smtpError(553, `5.1.3 ${normalized.reason}`));
      // RCPT comes after MAIL FROM, which needs AUTH: the credential is there.
      const refusal = shieldRefusal(normalized.domain, credentialOf(session).shield);
      if (refusal) return callback(smtpError(553, `5.7.1 ${refusal}`));
      callback();
    },

    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (!stream.sizeExceeded) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (stream.sizeExceeded)
          return callback(smtpError(552, `5.3.4 Message exceeds the maximum size of ${MAX_MESSAGE_BYTES} bytes`));
        const envelope = session.envelope;
        const input = {
          mail_from: envelope.mailFrom ? envelope.mailFrom.address : '',
          recipients: envelope.rcptTo.map((recipient) => recipient.address),
          raw: '',
        };
        const logger = loggers.of(session);
        decodeSubmission(Buffer.concat(chunks))
          .then((raw) => submitSmtpMessage(context(session), { ...input, raw }))
          .then((accepted) => {
            logger.debug(
              { messageIdHeader: accepted.messageIdHeader, recipients: input.recipients.length },
              'smtp message accepted',
            );
            callback(null, `2.0.0 Ok: queued as ${accepted.messageIdHeader}`);
          })
          .catch((error: unknown) => {
            const reply = replyForError(error);
            if (isDatabaseUnavailable(error))
              logger.warn({ err: error }, 'smtp submission deferred: the database cannot be reached');
            else if (reply.responseCode === 451) logger.error({ err: error }, 'smtp submission failed');
            else logger.info({ code: reply.responseCode, reply: reply.message }, 'smtp message refused');
            callback(reply);
          });
      });
    },
  });
  server.on('error', (error) => services.logger.warn({ err: error.message }, 'smtp submission connection error'));

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
