import addressparser from 'nodemailer/lib/addressparser';
import { invalidInput } from '@/lib/shared/errors';
import type { RawMessage } from './raw-message';

/** The author and sender mailboxes a submitted message names: every one must be the credential's to send. */
export type SubmissionSenders = { from: string[]; sender: string[] };

/**
 * Every mailbox of the From and Sender fields, as a recipient's client and a DKIM verifier read them.
 * RFC 5322 allows one From and at most one Sender field: a second one could show (and be signed as)
 * another author, so it is refused rather than guessed at. Groups are flattened; a mailbox without
 * an address (a bare name, or an encoded word hiding one) is refused, since no domain can be checked.
 */
export function submissionSenders(message: RawMessage): SubmissionSenders {
  const fieldsOf = (name: string) => message.headers.filter((header) => header.name.toLowerCase() === name);
  const from = fieldsOf('from');
  const sender = fieldsOf('sender');
  if (from.length > 1)
    throw invalidInput(`the message has ${from.length} From header fields; RFC 5322 allows exactly one`, 'headers');
  if (sender.length > 1)
    throw invalidInput(`the message has ${sender.length} Sender header fields; RFC 5322 allows at most one`, 'headers');
  const senders = { from: mailboxesOf(from[0]?.value, 'From'), sender: mailboxesOf(sender[0]?.value, 'Sender') };
  if (senders.from.length === 0) throw invalidInput('the message has no From address', 'message');
  return senders;
}

function mailboxesOf(value: string | undefined, field: string): string[] {
  if (value === undefined) return [];
  return addressparser(value, { flatten: true }).map((mailbox) => {
    if (!mailbox.address)
      throw invalidInput(`the ${field} header names "${mailbox.name.slice(0, 100)}" without an address`, 'headers');
    return mailbox.address;
  });
}
