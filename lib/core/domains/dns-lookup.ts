import { Resolver } from 'node:dns/promises';

export type DnsAnswer = { status: 'found'; values: string[] } | { status: 'none' } | { status: 'error'; error: string };

export type DnsLookup = {
  txt(name: string): Promise<DnsAnswer>;
  cname(name: string): Promise<DnsAnswer>;
  mx(name: string): Promise<DnsAnswer>;
};

// No such name, or no record of that type: a definite "not there".
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'NOTFOUND']);

/**
 * Real DNS through the system resolver, or the `DNS_SERVERS` of the configuration (host:port).
 * Answers distinguish "not there" (NXDOMAIN, no data) from "could not tell" (SERVFAIL, timeout),
 * because only the first may turn a verified record red.
 */
export function createDnsLookup(options: { servers: { host: string; port: number }[]; timeoutMs: number }): DnsLookup {
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: 2 });
  if (options.servers.length) {
    resolver.setServers(options.servers.map(({ host, port }) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`)));
  }
  const ask = async (query: () => Promise<string[]>): Promise<DnsAnswer> => {
    try {
      const values = await query();
      return values.length ? { status: 'found', values } : { status: 'none' };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      if (ABSENT.has(code)) return { status: 'none' };
      return { status: 'error', error: describe(code) };
    }
  };
  const clean = (name: string) => name.toLowerCase().replace(/\.$/, '');
  return {
    // Long TXT records arrive as several strings; DNS says they are one value.
    txt: (name) => ask(async () => (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''))),
    cname: (name) => ask(async () => (await resolver.resolveCname(name)).map(clean)),
    mx: (name) => ask(async () => (await resolver.resolveMx(name)).sort((a, b) => a.priority - b.priority).map((mx) => clean(mx.exchange))),
  };
}

function describe(code: string): string {
  switch (code) {
    case 'ESERVFAIL':
      return 'the DNS server failed to answer (SERVFAIL)';
    case 'ETIMEOUT':
      return 'the DNS lookup timed out';
    case 'ECONNREFUSED':
      return 'the DNS server refused the connection';
    case 'EREFUSED':
      return 'the DNS server refused the query';
    default:
      return `the DNS lookup failed (${code})`;
  }
}
