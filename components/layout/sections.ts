/**
 * Every area of the dashboard, in navigation order, with the scope needed to read it (used only to
 * hide what a role cannot open; the API makes the real decision).
 */
export type Section = {
  slug: string;
  label: string;
  readScope: string | null;
  group: 'Sending' | 'Marketing' | 'Account';
  /** Shown only in a partner account (the API refuses the others anyway). */
  isPartnerOnly?: boolean;
};

export const SECTIONS: Section[] = [
  { slug: 'domains', label: 'Domains', readScope: 'domains:read', group: 'Sending' },
  { slug: 'messages', label: 'Messages', readScope: 'messages:read', group: 'Sending' },
  { slug: 'deliverability', label: 'Deliverability', readScope: 'statistics-transactional:read', group: 'Sending' },
  { slug: 'suppressions', label: 'Suppressions', readScope: 'suppressions:read', group: 'Sending' },
  { slug: 'api-keys', label: 'API keys', readScope: 'api-keys:read', group: 'Sending' },
  { slug: 'smtp-credentials', label: 'SMTP credentials', readScope: 'smtp-credentials:read', group: 'Sending' },
  { slug: 'webhooks', label: 'Webhooks', readScope: 'webhooks:read', group: 'Sending' },
  { slug: 'routes', label: 'Routes', readScope: 'routes:read', group: 'Sending' },
  { slug: 'contacts', label: 'Contacts', readScope: 'contacts:read', group: 'Marketing' },
  { slug: 'lists', label: 'Lists', readScope: 'lists:read', group: 'Marketing' },
  { slug: 'signup-forms', label: 'Signup forms', readScope: 'lists:read', group: 'Marketing' },
  { slug: 'segments', label: 'Segments', readScope: 'contacts:read', group: 'Marketing' },
  { slug: 'templates', label: 'Templates', readScope: 'templates:read', group: 'Marketing' },
  { slug: 'media', label: 'Media', readScope: 'templates:read', group: 'Marketing' },
  { slug: 'campaigns', label: 'Campaigns', readScope: 'campaigns:read', group: 'Marketing' },
  { slug: 'members', label: 'Members', readScope: 'accounts:members:read', group: 'Account' },
  {
    slug: 'sub-accounts',
    label: 'Sub accounts',
    readScope: 'sub-accounts:read',
    group: 'Account',
    isPartnerOnly: true,
  },
  { slug: 'activity', label: 'Activity', readScope: 'accounts:read', group: 'Account' },
  { slug: 'settings', label: 'Settings', readScope: 'accounts:read', group: 'Account' },
  // The person's own page (password, sessions): every role opens it.
  { slug: 'profile', label: 'Your profile', readScope: null, group: 'Account' },
];

/** Cosmetic: whether a scope list includes a scope or its `:all`/domain forms. */
export function mayOpen(scopes: readonly string[], readScope: string | null): boolean {
  if (readScope === null || scopes.includes('*')) return true;
  return scopes.some((scope) => scope === readScope || scope.startsWith(`${readScope}:`));
}
