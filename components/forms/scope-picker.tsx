'use client';

import { useId } from 'react';
import { DOMAIN_SCOPE_PREFIXES, STATIC_SCOPES } from '@/lib/auth/scopes';

type Props = {
  value: string[];
  onChange: (scopes: string[]) => void;
  /** The account's domains, to pick from for "Some domains"; null while they load. */
  domains: readonly string[] | null;
  /** Sub-account scopes are offered only in a partner account (the API refuses them elsewhere). */
  isPartner: boolean;
  isInvalid?: boolean;
  describedBy?: string;
};

const PARTNER_AREAS = new Set(['Sub accounts', 'Sub-account API keys']);

type Area = { name: string; statics: string[]; prefixes: string[] };

const AREA_NAMES: Record<string, string> = {
  messages: 'Messages',
  domains: 'Domains',
  accounts: 'Account',
  webhooks: 'Webhooks',
  routes: 'Inbound routes',
  suppressions: 'Suppressions',
  templates: 'Templates',
  campaigns: 'Campaigns',
  contacts: 'Contacts',
  lists: 'Lists',
  'smtp-credentials': 'SMTP credentials',
  'statistics-transactional': 'Statistics',
  'api-keys': 'API keys',
  'sub-accounts': 'Sub accounts',
  'sub-account-api-keys': 'Sub-account API keys',
};

/** The catalogue grouped by area (the part before the first colon), straight from lib/auth/scopes. */
const AREAS: Area[] = Object.entries(AREA_NAMES).map(([key, name]) => ({
  name,
  statics: STATIC_SCOPES.filter((scope) => scope.split(':')[0] === key),
  prefixes: DOMAIN_SCOPE_PREFIXES.filter((prefix) => prefix.split(':')[0] === key),
}));

const verbOf = (scope: string) => scope.split(':').slice(1).join(' ');

/**
 * Scopes by area: a checkbox for each plain scope; for scopes that can be limited to domains, a
 * choice of no access, every domain (`:all`) or named domains (`:{example.com}`).
 */
export function ScopePicker({ value, onChange, domains, isPartner, isInvalid, describedBy }: Props) {
  const baseId = useId();
  const isFullAccess = value.includes('*');
  const toggle = (scope: string, isOn: boolean) =>
    onChange(isOn ? [...value, scope] : value.filter((item) => item !== scope));
  const domainsOf = (prefix: string) =>
    value.filter((scope) => scope.startsWith(`${prefix}:{`)).map((scope) => scope.slice(prefix.length + 2, -1));
  const modeOf = (prefix: string) =>
    value.includes(`${prefix}:all`)
      ? 'all'
      : domainsOf(prefix).length || value.includes(`${prefix}:{`)
        ? 'some'
        : 'none';
  const setPrefix = (prefix: string, mode: string, domains: string[]) => {
    const rest = value.filter((scope) => !scope.startsWith(`${prefix}:`));
    if (mode === 'all') return onChange([...rest, `${prefix}:all`]);
    // An empty pair of braces keeps "Some domains" chosen until one is ticked; the API refuses it as it stands.
    if (mode === 'some')
      return onChange([...rest, ...(domains.length ? domains : ['']).map((domain) => `${prefix}:{${domain}}`)]);
    onChange(rest);
  };

  return (
    <div
      className={`space-y-3 rounded-md p-3 ring-1 ${isInvalid ? 'ring-red-500' : 'ring-slate-200'}`}
      aria-describedby={describedBy}
      role="group"
      aria-label="Scopes"
    >
      <label className="flex items-center gap-2 text-sm font-medium">
        <input
          type="checkbox"
          checked={isFullAccess}
          onChange={(event) => onChange(event.target.checked ? ['*'] : [])}
          className="size-4"
        />
        Full access (<code>*</code>): every scope, now and later
      </label>
      {!isFullAccess ? (
        <div className="grid gap-3 sm:grid-cols-2">
          {AREAS.filter((area) => isPartner || !PARTNER_AREAS.has(area.name)).map((area) => (
            <fieldset key={area.name} className="rounded-md bg-slate-50 p-3">
              <legend className="text-xs font-semibold uppercase tracking-wide text-slate-500">{area.name}</legend>
              <div className="mt-1 space-y-1.5">
                {area.statics.map((scope) => (
                  <label key={scope} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="size-4"
                      checked={value.includes(scope)}
                      onChange={(event) => toggle(scope, event.target.checked)}
                      data-scope={scope}
                    />
                    {verbOf(scope)}
                  </label>
                ))}
                {area.prefixes.map((prefix) => {
                  const id = `${baseId}-${prefix}`;
                  const mode = modeOf(prefix);
                  return (
                    <div key={prefix} className="space-y-1">
                      <label htmlFor={id} className="flex items-center justify-between gap-2 text-sm">
                        {verbOf(prefix)}
                        <select
                          id={id}
                          value={mode}
                          onChange={(event) => setPrefix(prefix, event.target.value, domainsOf(prefix))}
                          className="rounded border-0 py-0.5 pl-2 pr-7 text-xs ring-1 ring-slate-300"
                          data-scope-prefix={prefix}
                        >
                          <option value="none">No access</option>
                          <option value="all">All domains</option>
                          <option value="some">Some domains</option>
                        </select>
                      </label>
                      {mode === 'some' ? (
                        <DomainChoices
                          prefix={prefix}
                          domains={domains}
                          chosen={domainsOf(prefix).filter(Boolean)}
                          onChange={(chosen) => setPrefix(prefix, 'some', chosen)}
                        />
                      ) : null}
                    </div>
                  );
                })}
              </div>
            </fieldset>
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** The account's domains as ticks (plus any domain the key already names that the account no longer has). */
function DomainChoices({
  prefix,
  domains,
  chosen,
  onChange,
}: {
  prefix: string;
  domains: readonly string[] | null;
  chosen: string[];
  onChange: (chosen: string[]) => void;
}) {
  if (domains === null) return <p className="text-xs text-slate-600">Loading the account&apos;s domains…</p>;
  const offered = [...new Set([...domains, ...chosen])];
  if (offered.length === 0)
    return <p className="text-xs text-slate-600">This account has no domains yet: add one under Domains first.</p>;
  return (
    <fieldset className="space-y-1 rounded bg-white p-2 ring-1 ring-slate-200" aria-label={`Domains for ${prefix}`}>
      {offered.map((domain) => (
        <label key={domain} className="flex items-center gap-2 text-xs wrap-anywhere">
          <input
            type="checkbox"
            className="size-3.5"
            checked={chosen.includes(domain)}
            onChange={(event) =>
              onChange(event.target.checked ? [...chosen, domain] : chosen.filter((item) => item !== domain))
            }
            data-scope-domain={domain}
          />
          {domain}
        </label>
      ))}
    </fieldset>
  );
}

export function summarizeScopes(scopes: readonly string[]): string {
  if (scopes.includes('*')) return 'Full access';
  if (scopes.length <= 2) return scopes.join(', ');
  return `${scopes.slice(0, 2).join(', ')} +${scopes.length - 2} more`;
}
