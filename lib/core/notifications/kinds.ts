/**
 * The alerts Mailstead mails to people, as data: who gets each, what it is about, what it says and
 * which dashboard page it links to. Triggers call notifyPeople (notify-people.ts) with a kind id and
 * the facts; the renderer escapes and flattens every fact before a builder sees it.
 */

/** What a trigger knows; every string is already one line (no CR/LF) when a builder reads it. */
export type NotificationFacts = {
  /** The account whose page the link opens (for a sub account's cap: the partner's). */
  accountId: string;
  accountName: string;
  resourceId: string;
  /** How a person recognises the resource: a domain, a webhook's name, a campaign's name. */
  resourceName: string;
  /** Why, when the trigger knows (a webhook's last error, the records that broke). */
  detail: string | null;
};

/**
 * `administrators`: the account's owner and its Administrators; `parent_administrators`: those of
 * the account's partner (who set the cap), else the account's own; `person`: the one person it is about.
 */
export type NotificationRecipients = 'administrators' | 'parent_administrators' | 'person';

export type NotificationKindDefinition = {
  /** The switch's label on the profile page. */
  label: string;
  /** One sentence: when it is sent. */
  description: string;
  recipients: NotificationRecipients;
  /** The audit event's resource type, and part of the once-an-hour key. */
  resourceType: string;
  subject: (facts: NotificationFacts) => string;
  /** Paragraphs of plain text: what happened and what to do. */
  summary: (facts: NotificationFacts) => string[];
  /** The resource's dashboard page, under PUBLIC_URL. */
  path: (facts: NotificationFacts) => string;
};

const reason = (facts: NotificationFacts) => (facts.detail ? [`Reason: ${facts.detail}`] : []);

export const NOTIFICATION_KINDS = {
  domain_paused: {
    label: 'A domain is paused',
    description: 'When a sending domain is paused because too many of its messages bounced.',
    recipients: 'administrators',
    resourceType: 'domain',
    subject: (f) => `Sending from ${f.resourceName} is paused`,
    summary: (f) => [
      `Mailstead paused sending from ${f.resourceName} in the account "${f.accountName}": too many of its recent messages bounced.`,
      ...reason(f),
      'Messages from this domain are not sent until someone unpauses it on its page.',
    ],
    path: (f) => `/${f.accountId}/domains/${encodeURIComponent(f.resourceName)}`,
  },
  domain_dns_broken: {
    label: "A domain's DNS breaks",
    description: 'When a DNS record that a verified domain needs stops being found.',
    recipients: 'administrators',
    resourceType: 'domain',
    subject: (f) => `DNS records of ${f.resourceName} stopped working`,
    summary: (f) => [
      `A DNS record that ${f.resourceName} needs (account "${f.accountName}") was valid and is no longer found.`,
      ...reason(f),
      'Mail from this domain may be rejected or land in spam until the record is back.',
    ],
    path: (f) => `/${f.accountId}/domains/${encodeURIComponent(f.resourceName)}`,
  },
  webhook_disabled: {
    label: 'A webhook turns itself off',
    description: 'When a webhook is disabled after a run of failed deliveries.',
    recipients: 'administrators',
    resourceType: 'webhook',
    subject: (f) => `Webhook "${f.resourceName}" was turned off`,
    summary: (f) => [
      `The webhook "${f.resourceName}" of the account "${f.accountName}" failed too many times in a row and was turned off. Its waiting events will not be sent.`,
      ...reason(f),
      'Fix the endpoint, then enable the webhook again on its page.',
    ],
    path: (f) => `/${f.accountId}/webhooks/${f.resourceId}`,
  },
  route_disabled: {
    label: 'A route turns itself off',
    description: 'When an inbound route is disabled after a run of failed deliveries.',
    recipients: 'administrators',
    resourceType: 'route',
    subject: (f) => `Route "${f.resourceName}" was turned off`,
    summary: (f) => [
      `The route "${f.resourceName}" of the account "${f.accountName}" failed too many times in a row and was turned off. Its waiting mail will not be posted.`,
      ...reason(f),
      'Fix the endpoint, then enable the route again on its page.',
    ],
    path: (f) => `/${f.accountId}/routes/${f.resourceId}`,
  },
  sub_account_cap_reached: {
    label: 'A sub account reaches its monthly cap',
    description: "When a sub account's sending is refused because it used its monthly credit.",
    recipients: 'parent_administrators',
    resourceType: 'sub_account',
    subject: (f) => `Sub account "${f.resourceName}" reached its monthly cap`,
    summary: (f) => [
      `The sub account "${f.resourceName}" of "${f.accountName}" has used its monthly credit: its sends are refused until the month ends or the cap is raised.`,
      ...reason(f),
    ],
    path: (f) => `/${f.accountId}/sub-accounts/${f.resourceId}`,
  },
  campaign_finished: {
    label: 'A campaign finishes',
    description: 'When every message of a campaign has an outcome (delivered, bounced or failed).',
    recipients: 'administrators',
    resourceType: 'campaign',
    subject: (f) => `Campaign "${f.resourceName}" has finished sending`,
    summary: (f) => [
      `Every message of the campaign "${f.resourceName}" (account "${f.accountName}") has an outcome.`,
      ...reason(f),
      'Its report shows deliveries, opens, clicks and bounces.',
    ],
    path: (f) => `/${f.accountId}/campaigns/${f.resourceId}`,
  },
  two_factor_disabled: {
    label: 'Two-factor sign-in is turned off for me',
    description: 'When two-factor sign-in is turned off for your own sign-in, by you or by the server’s operator.',
    recipients: 'person',
    resourceType: 'user',
    subject: () => 'Two-factor sign-in was turned off for your Mailstead sign-in',
    summary: (f) => [
      `Two-factor sign-in was turned off for ${f.resourceName}. Signing in now needs only the password.`,
      ...reason(f),
      'If you did not do this, change your password and turn two-factor sign-in on again on your profile.',
    ],
    path: (f) => `/${f.accountId}/profile`,
  },
  full_access_api_key_created: {
    label: 'An API key with every scope is made',
    description: 'When someone creates an API key that holds every scope of the account.',
    recipients: 'administrators',
    resourceType: 'api_key',
    subject: (f) => `A full-access API key "${f.resourceName}" was created`,
    summary: (f) => [
      `An API key holding every scope, "${f.resourceName}", was created in the account "${f.accountName}".`,
      ...reason(f),
      'If nobody on your team expected it, delete it on the API keys page.',
    ],
    path: (f) => `/${f.accountId}/api-keys`,
  },
} satisfies Record<string, NotificationKindDefinition>;

export type NotificationKind = keyof typeof NOTIFICATION_KINDS;

export const NOTIFICATION_KIND_IDS = Object.keys(NOTIFICATION_KINDS) as NotificationKind[];

export const isNotificationKind = (value: string): value is NotificationKind =>
  Object.prototype.hasOwnProperty.call(NOTIFICATION_KINDS, value);
