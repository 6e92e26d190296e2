import { isDatabaseUnavailable } from '@/lib/shared/database-unavailable';
import { AppError } from '@/lib/shared/errors';

export type SmtpError = Error & { responseCode: number };

/** An SMTP reply to send instead of the default one (smtp-server reads `responseCode`). */
export function smtpError(responseCode: number, message: string): SmtpError {
  return Object.assign(new Error(message), { responseCode });
}

/**
 * Core's error kinds as SMTP replies, with the codes the contract lists: 556 for a sender domain that
 * is not the account's, not verified or outside the credential's scope; 550 for sender header fields
 * that cannot be trusted (two From fields, a mailbox without address); 552 for a malformed message;
 * anything unexpected is temporary (451), so that the client keeps the mail and tries again.
 */
export function replyForError(error: unknown): SmtpError {
  if (error instanceof AppError) {
    if (error.kind === 'forbidden')
      return smtpError(556, `5.7.1 ${error.message}: the sender domain is not allowed for this credential`);
    if (error.kind === 'invalid_input' && (error.field === 'from' || error.field === 'sender'))
      return smtpError(556, `5.7.1 ${error.message}`);
    if (error.kind === 'invalid_input' && error.field === 'headers') return smtpError(550, `5.6.0 ${error.message}`);
    if (error.kind === 'invalid_input') return smtpError(552, `5.6.0 ${error.message}`);
    if (error.kind === 'rate_limited') return smtpError(451, `4.7.0 ${error.message}`);
    if (error.kind === 'unavailable') return smtpError(451, `4.3.0 ${error.message}, try again later`);
  }
  if (isDatabaseUnavailable(error))
    return smtpError(451, '4.3.0 the database cannot be reached right now, try again later');
  return smtpError(451, '4.3.0 temporary failure, try again later');
}
