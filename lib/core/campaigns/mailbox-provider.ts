export const MAILBOX_PROVIDERS = ['gmail', 'microsoft', 'yahoo', 'apple', 'other'] as const;
export type MailboxProvider = (typeof MAILBOX_PROVIDERS)[number];

/** The MX host domains each provider receives mail on (Google Workspace and Microsoft 365 included). */
const PROVIDER_MX_DOMAINS: [Exclude<MailboxProvider, 'other'>, string[]][] = [
  ['gmail', ['google.com', 'googlemail.com']],
  ['microsoft', ['outlook.com', 'hotmail.com']],
  ['yahoo', ['yahoodns.net', 'yahoo.com']],
  ['apple', ['icloud.com', 'apple.com']],
];

/**
 * The mailbox provider behind a recipient domain, from its MX host names in priority order: the
 * first host on a provider's domain decides (a label-wise suffix, so `google.com.example` is other).
 */
export function classifyMailboxProvider(mxHosts: string[]): MailboxProvider {
  for (const host of mxHosts) {
    const name = host.toLowerCase().replace(/\.$/, '');
    for (const [provider, suffixes] of PROVIDER_MX_DOMAINS)
      if (suffixes.some((suffix) => name === suffix || name.endsWith(`.${suffix}`))) return provider;
  }
  return 'other';
}

/** A stored provider as the report counts it: unknown (not delivered yet, a relay) is other. */
export function mailboxProviderOf(message: { mailboxProvider: string | null }): MailboxProvider {
  return (MAILBOX_PROVIDERS as readonly string[]).includes(message.mailboxProvider ?? '')
    ? (message.mailboxProvider as MailboxProvider)
    : 'other';
}
