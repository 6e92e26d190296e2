import { Resolver } from 'node:dns/promises';

export type DnsAnswer = { status: 'found'; values: string[] } | { status: 'none' } | { status: 'error'; error: string };

export type DnsLookup = {
  txt(name: string): Promise<DnsAnswer>;
  cname(name: string): Promise<DnsAnswer>;
  mx(name: string): Promise<DnsAnswer>;
  /** MX hosts with their priorities, lowest first; `found` with no values is a null MX ("."). */
  mxRecords(
    name: string,
  ): Promise<
    | { status: 'found'; values: { exchange: string; priority: number }[] }
    | { status: 'none' }
    | { status: 'error'; error: string }
  >;
  addresses(name: string): Promise<DnsAnswer>;
  /** PTR names of an IP address (reverse DNS). */
  reverse(ip: string): Promise<DnsAnswer>;
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
    resolver.setServers(
      options.servers.map(({ host, port }) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`)),
    );
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
    mx: (name) =>
      ask(async () =>
        (await resolver.resolveMx(name)).sort((a, b) => a.priority - b.priority).map((mx) => clean(mx.exchange)),
      ),
    async mxRecords(name) {
      try {
        const records = (await resolver.resolveMx(name)).sort((a, b) => a.priority - b.priority);
        if (records.length === 0) return { status: 'none' };
        return {
          status: 'found',
          values: records
            .map((mx) => ({ exchange: clean(mx.exchange), priority: mx.priority }))
            .filter((mx) => mx.exchange !== '' && mx.exchange !== '.'),
        };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
        return ABSENT.has(code) ? { status: 'none' } : { status: 'error', error: describe(code) };
      }
    },
    reverse: (ip) => ask(async () => (await resolver.reverse(ip)).map(clean)),
    // A then AAAA: the addresses to connect to for a host.
    addresses: async (name) => {
      const v4 = await ask(() => resolver.resolve4(name));
      const v6 = await ask(() => resolver.resolve6(name));
      const values = [...(v4.status === 'found' ? v4.values : []), ...(v6.status === 'found' ? v6.values : [])];
      if (values.length) return { status: 'found', values };
      if (v4.status === 'error') return v4;
      return v6.status === 'error' ? v6 : { status: 'none' };
    },
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
