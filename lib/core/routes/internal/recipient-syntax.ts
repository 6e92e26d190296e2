// The syntax of a recipient pattern, without Node's modules, so that the form validates with the
// API's own schema in the browser. The verb normalises the pattern fully (recipient-pattern.ts:
// internationalised domains, IP literals) and checks its domain is the account's (queries.ts).

const LOCAL_PATTERN = /^[a-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}$/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Why a pattern cannot be one (the reasons recipient-pattern.ts gives), or null when it may be. */
export function recipientSyntaxError(raw: string): string | null {
  const value = raw.trim().toLowerCase();
  if (value === '' || value === '*') return null;
  const at = value.lastIndexOf('@');
  const local = at === -1 ? value : value.slice(0, at);
  if (!LOCAL_PATTERN.test(local))
    return 'the local part must be 1-64 characters of an address local part, with * as a wildcard';
  if (at === -1) return null;
  const domain = value.slice(at + 1).replace(/\.$/, '');
  if (domain.includes('*')) return 'wildcards are allowed in the local part only; name the domain';
  if (domain === '') return 'the domain is empty';
  // Internationalised names are converted and checked by the verb.
  if (/[^\x00-\x7f]/.test(domain)) return null;
  const labels = domain.split('.');
  if (domain.length > 253) return 'the domain is longer than 253 characters';
  if (labels.length < 2) return 'the domain must be a fully qualified domain name (e.g. mail.example.com)';
  const bad = labels.find((label) => !LABEL.test(label));
  if (bad !== undefined)
    return `the domain has an invalid label "${bad.slice(0, 63)}" (letters, digits and inner hyphens only)`;
  if (/^\d+$/.test(labels.at(-1)!)) return 'the domain has a numeric top-level label';
  return null;
}
