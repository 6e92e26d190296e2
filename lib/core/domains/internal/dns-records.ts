import { isIP } from 'node:net';
import type { CoreConfig } from '@/lib/core/config';

export const DEFAULT_SUBDOMAINS = { returnPath: 'rp', tracking: 't', subscription: 'u', media: 'media' } as const;

type RecordKind = 'spf' | 'dkim' | 'dmarc' | 'tlsrpt' | 'cname' | 'mx';

/** One DNS record a domain should publish: what it is, and what a lookup must find for it to count. */
export type ExpectedRecord = {
  key: string;
  kind: RecordKind;
  type: 'TXT' | 'CNAME' | 'MX';
  label: string;
  host: string;
  content: string;
  required: boolean;
  priority?: number;
  /** spf: mechanisms that must be present; dkim: the public key; cname/mx: the target host. */
  expect: string[];
};

type DomainShape = {
  domain: string;
  returnPathSubdomain: string | null;
  trackingSubdomain: string | null;
  subscriptionSubdomain: string | null;
  mediaSubdomain: string | null;
  reportsEnabled?: boolean;
  reportsToken?: string | null;
};

/** Where a domain's DMARC and TLS reports go when its reports are on: an address at our own MX. */
export function reportAddress(domain: Pick<DomainShape, 'reportsEnabled' | 'reportsToken'>, mailHostname: string) {
  return domain.reportsEnabled && domain.reportsToken
    ? `dmarc-${domain.reportsToken}@${mailHostname.toLowerCase()}`
    : null;
}

type KeyShape = { selector: string; status: string; publicKey: string };

function spfMechanisms(config: Pick<CoreConfig, 'spfInclude' | 'sendingIps' | 'mailHostname'>): string[] {
  if (config.spfInclude) return [`include:${config.spfInclude}`];
  if (config.sendingIps.length) return config.sendingIps.map((ip) => (isIP(ip) === 6 ? `ip6:${ip}` : `ip4:${ip}`));
  return [`a:${config.mailHostname}`];
}

const effectiveSubdomains = (domain: DomainShape) => ({
  returnPath: domain.returnPathSubdomain ?? DEFAULT_SUBDOMAINS.returnPath,
  tracking: domain.trackingSubdomain ?? DEFAULT_SUBDOMAINS.tracking,
  subscription: domain.subscriptionSubdomain ?? DEFAULT_SUBDOMAINS.subscription,
  media: domain.mediaSubdomain ?? DEFAULT_SUBDOMAINS.media,
});

/**
 * The records a domain should publish, computed from the configuration (PUBLIC_URL host,
 * MAIL_HOSTNAME, SPF_INCLUDE or SENDING_IPS) and the domain's keys. SPF, active DKIM and DMARC are
 * required; the rest make sending better or enable features.
 */
export function expectedDnsRecords(
  domain: DomainShape,
  keys: KeyShape[],
  config: Pick<CoreConfig, 'spfInclude' | 'sendingIps' | 'mailHostname' | 'publicUrl'>,
): ExpectedRecord[] {
  const name = domain.domain;
  const mailHost = config.mailHostname.toLowerCase();
  const webHost = config.publicUrl.hostname.toLowerCase();
  const sub = effectiveSubdomains(domain);
  const mechanisms = spfMechanisms(config);
  const records: ExpectedRecord[] = [
    {
      key: `TXT:${name}`,
      kind: 'spf',
      type: 'TXT',
      label: 'SPF',
      host: name,
      content: `v=spf1 ${mechanisms.join(' ')} ~all`,
      required: true,
      expect: mechanisms,
    },
  ];
  const active = keys.find((key) => key.status === 'active');
  if (active) {
    const host = `${active.selector}._domainkey.${name}`;
    records.push({
      key: `TXT:${host}`,
      kind: 'dkim',
      type: 'TXT',
      label: 'DKIM',
      host,
      content: `v=DKIM1; k=rsa; p=${active.publicKey}`,
      required: true,
      expect: [active.publicKey],
    });
  }
  const reportsTo = reportAddress(domain, mailHost);
  records.push({
    key: `TXT:_dmarc.${name}`,
    kind: 'dmarc',
    type: 'TXT',
    label: 'DMARC',
    host: `_dmarc.${name}`,
    content: `v=DMARC1; p=quarantine; adkim=r; aspf=r;${reportsTo ? ` rua=mailto:${reportsTo};` : ''}`,
    required: true,
    expect: [],
  });
  if (reportsTo) {
    // RFC 8460: sending MTAs mail TLS reports to the rua of `_smtp._tls.<domain>`.
    records.push({
      key: `TXT:_smtp._tls.${name}`,
      kind: 'tlsrpt',
      type: 'TXT',
      label: 'TLS reporting (TLSRPT)',
      host: `_smtp._tls.${name}`,
      content: `v=TLSRPTv1; rua=mailto:${reportsTo}`,
      required: false,
      expect: [`mailto:${reportsTo}`],
    });
  }
  const cname = (label: string, subdomain: string, target: string): ExpectedRecord => {
    const host = `${subdomain}.${name}`;
    return {
      key: `CNAME:${host}`,
      kind: 'cname',
      type: 'CNAME',
      label,
      host,
      content: target,
      required: false,
      expect: [target],
    };
  };
  records.push(cname('Return path', sub.returnPath, mailHost));
  records.push(cname('Click and open tracking', sub.tracking, webHost));
  records.push(cname('Subscription management', sub.subscription, webHost));
  records.push(cname('Media', sub.media, webHost));
  const standby = keys.find((key) => key.status === 'standby');
  if (standby) {
    const host = `${standby.selector}._domainkey.${name}`;
    records.push({
      key: `TXT:${host}`,
      kind: 'dkim',
      type: 'TXT',
      label: 'DKIM standby (for rotation)',
      host,
      content: `v=DKIM1; k=rsa; p=${standby.publicKey}`,
      required: false,
      expect: [standby.publicKey],
    });
  }
  records.push({
    key: `MX:${name}`,
    kind: 'mx',
    type: 'MX',
    label: 'Inbound mail (MX)',
    host: name,
    content: mailHost,
    priority: 10,
    required: false,
    expect: [mailHost],
  });
  return records;
}

/** Whether what DNS holds satisfies the record. */
export function recordMatches(record: ExpectedRecord, values: string[]): boolean {
  switch (record.kind) {
    case 'spf':
      return values.some((value) => {
        const tokens = value.trim().toLowerCase().split(/\s+/);
        return (
          tokens[0] === 'v=spf1' &&
          record.expect.every((mechanism) =>
            tokens.some((token) => token.replace(/^[+~?]/, '') === mechanism.toLowerCase()),
          )
        );
      });
    case 'dkim':
      return values.some((value) => tagsOf(value).p === record.expect[0]);
    case 'dmarc':
      return values.some((value) => {
        const tags = tagsOf(value);
        return (
          tags.v?.toUpperCase() === 'DMARC1' && ['none', 'quarantine', 'reject'].includes((tags.p ?? '').toLowerCase())
        );
      });
    case 'tlsrpt':
      return values.some((value) => {
        const tags = tagsOf(value);
        return tags.v === 'TLSRPTv1' && (tags.rua ?? '').toLowerCase().split(',').includes(record.expect[0]);
      });
    case 'cname':
    case 'mx':
      return values.some((value) => value === record.expect[0]);
  }
}

/** `k=v; k=v` tag lists (DKIM and DMARC); whitespace inside values is not significant. */
function tagsOf(value: string): Record<string, string> {
  return Object.fromEntries(
    value
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const index = part.indexOf('=');
        return index === -1
          ? [part.toLowerCase(), '']
          : [part.slice(0, index).trim().toLowerCase(), part.slice(index + 1).replace(/\s+/g, '')];
      }),
  );
}
