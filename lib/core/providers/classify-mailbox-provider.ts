/**
 * The mailbox providers Mailstead tells apart: the ones whose rules (Gmail's and Yahoo's bulk-sender
 * requirements, Microsoft's throttling) shape delivery, and "other" for the rest of the world.
 */
export const MAILBOX_PROVIDERS = ['gmail', 'microsoft', 'yahoo', 'apple', 'other'] as const;
export type MailboxProvider = (typeof MAILBOX_PROVIDERS)[number];

export const MAILBOX_PROVIDER_LABELS: Record<MailboxProvider, string> = {
  gmail: 'Gmail',
  microsoft: 'Microsoft',
  yahoo: 'Yahoo',
  apple: 'Apple',
  other: 'Other',
};

/**
 * A provider is recognised by the names of its MX hosts, not by the recipient's domain: a company
 * on Google Workspace has `aspmx.l.google.com` as MX for its own domain, and is paced like Gmail.
 */
const MX_HOST_SUFFIXES: [MailboxProvider, string[]][] = [
  ['gmail', ['google.com', 'googlemail.com']],
  ['microsoft', ['outlook.com', 'hotmail.com', 'outlook.office365.com']],
  ['yahoo', ['yahoodns.net', 'yahoo.com', 'aol.com']],
  ['apple', ['icloud.com', 'me.com', 'mac.com', 'apple.com']],
];

/** The provider behind a domain's MX host names (the first host that names one decides). */
export function classifyMailboxProvider(mxHosts: readonly string[]): MailboxProvider {
  for (const raw of mxHosts) {
    const host = raw.toLowerCase().replace(/\.$/, '');
    for (const [provider, suffixes] of MX_HOST_SUFFIXES) {
      if (suffixes.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) return provider;
    }
  }
  return 'other';
}
