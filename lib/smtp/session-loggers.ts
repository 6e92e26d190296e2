import type { Logger } from 'pino';
import type { SMTPServerSession } from 'smtp-server';

/**
 * A child logger per SMTP session, stamping `smtpSession` (smtp-server's random session id) and the
 * listener's role on every line, so that one session can be followed in the logs; core verbs called
 * for the session get the same logger.
 */
export function createSessionLoggers(logger: Logger, role: 'submission' | 'mx') {
  const loggers = new Map<string, Logger>();
  const open = (session: SMTPServerSession): Logger => {
    const child = logger.child({ smtpSession: session.id, smtpRole: role });
    loggers.set(session.id, child);
    return child;
  };
  return {
    open,
    of: (session: SMTPServerSession): Logger => loggers.get(session.id) ?? open(session),
    close: (session: SMTPServerSession): void => void loggers.delete(session.id),
  };
}
