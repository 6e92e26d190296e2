import { MAILBOX_PROVIDERS, type MailboxProvider } from '@/lib/core/providers/classify-mailbox-provider';

/** A stored provider as the report counts it: unknown (not delivered yet, a relay) is other. */
export function mailboxProviderOf(message: { mailboxProvider: string | null }): MailboxProvider {
  return (MAILBOX_PROVIDERS as readonly string[]).includes(message.mailboxProvider ?? '')
    ? (message.mailboxProvider as MailboxProvider)
    : 'other';
}
