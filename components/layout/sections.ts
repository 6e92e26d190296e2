/**
 * Every area of the dashboard, in navigation order, with the scope needed to read it (used only to
 * hide what a role cannot open; the API makes the real decision) and whether its page exists yet.
 * Areas not built yet say what works today instead, and never name an endpoint that does not exist.
 */
export type Section = {
  slug: string;
  label: string;
  readScope: string | null;
  isBuilt: boolean;
  group: 'Sending' | 'Marketing' | 'Account';
  /** For areas not built yet: what a person can do about it today. */
  meanwhile?: string;
  /** A CLI command that already does part of the job. */
  command?: string;
};

export const SECTIONS: Section[] = [
  { slug: 'domains', label: 'Domains', readScope: 'domains:read', isBuilt: true, group: 'Sending' },
  { slug: 'messages', label: 'Messages', readScope: 'messages:read', isBuilt: true, group: 'Sending' },
  { slug: 'deliverability', label: 'Deliverability', readScope: 'statistics-transactional:read', isBuilt: true, group: 'Sending' },
  { slug: 'suppressions', label: 'Suppressions', readScope: 'suppressions:read', isBuilt: true, group: 'Sending' },
  { slug: 'api-keys', label: 'API keys', readScope: 'api-keys:read', isBuilt: true, group: 'Sending' },
  { slug: 'smtp-credentials', label: 'SMTP credentials', readScope: 'smtp-credentials:read', isBuilt: true, group: 'Sending' },
  { slug: 'webhooks', label: 'Webhooks', readScope: 'webhooks:read', isBuilt: true, group: 'Sending' },
  { slug: 'routes', label: 'Routes', readScope: 'routes:read', isBuilt: true, group: 'Sending' },
  { slug: 'contacts', label: 'Contacts', readScope: 'contacts:read', isBuilt: true, group: 'Marketing' },
  { slug: 'lists', label: 'Lists', readScope: 'lists:read', isBuilt: true, group: 'Marketing' },
  { slug: 'templates', label: 'Templates', readScope: 'templates:read', isBuilt: true, group: 'Marketing' },
  { slug: 'campaigns', label: 'Campaigns', readScope: 'campaigns:read', isBuilt: true, group: 'Marketing' },
  { slug: 'members', label: 'Members', readScope: 'accounts:members:read', isBuilt: true, group: 'Account' },
  { slug: 'sub-accounts', label: 'Sub accounts', readScope: 'sub-accounts:read', isBuilt: true, group: 'Account' },
  { slug: 'settings', label: 'Settings', readScope: 'accounts:read', isBuilt: true, group: 'Account' },
];

/** Cosmetic: whether a scope list includes a scope or its `:all`/domain forms. */
export function mayOpen(scopes: readonly string[], readScope: string | null): boolean {
  if (readScope === null || scopes.includes('*')) return true;
  return scopes.some((scope) => scope === readScope || scope.startsWith(`${readScope}:`));
}
