import type { DnsLookup } from '@/lib/core/domains/dns-lookup';

const TTL_MS = 6 * 60 * 60 * 1000;
const MAX_ENTRIES = 10_000;
// Reading a report page waits this long at most; a name not known by then shows on the next read.
const WAIT_MS = 1500;

const cache = new Map<string, { name: string | null; expiresAt: number }>();
const pending = new Map<string, Promise<string | null>>();

async function lookUp(dns: DnsLookup, ip: string): Promise<string | null> {
  const answer = await dns.reverse(ip);
  const name = answer.status === 'found' ? (answer.values[0] ?? null) : null;
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(ip, { name, expiresAt: Date.now() + TTL_MS });
  return name;
}

/**
 * PTR names of report sources, looked up when reports are read (never while the MX holds a
 * sender), through the configured resolver, cached per process.
 */
export async function reverseNames(dns: DnsLookup, ips: string[]): Promise<Map<string, string | null>> {
  const names = new Map<string, string | null>();
  const waits: Promise<void>[] = [];
  for (const ip of new Set(ips)) {
    const cached = cache.get(ip);
    if (cached && cached.expiresAt > Date.now()) {
      names.set(ip, cached.name);
      continue;
    }
    let lookup = pending.get(ip);
    if (!lookup) {
      lookup = lookUp(dns, ip)
        .catch(() => null)
        .finally(() => pending.delete(ip));
      pending.set(ip, lookup);
    }
    waits.push(lookup.then((name) => void names.set(ip, name)));
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(waits),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
  return names;
}
