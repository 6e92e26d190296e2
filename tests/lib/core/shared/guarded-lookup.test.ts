import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from '@/lib/shared/private-address';
import { guardedLookup, resolveGuardedHost } from '@/lib/core/shared/guarded-lookup';
import { TestDns } from '../../../support/memory-services';

describe('addresses webhooks may call', () => {
  const cases: [string, boolean][] = [
    ['127.0.0.1', true],
    ['127.9.9.9', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['255.255.255.255', true],
    ['224.0.0.1', true],
    ['::1', true],
    ['::', true],
    ['fc00::1', true],
    ['fd00:ec2::254', true],
    ['fe80::1', true],
    ['fec0::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:169.254.169.254', true],
    ['::127.0.0.1', true],
    ['64:ff9b::a00:1', true],
    ['64:ff9b:1::1', true],
    ['2002:7f00:1::', true],
    ['2001:db8::1', true],
    ['not an address', true],
    ['93.184.215.14', false],
    ['8.8.8.8', false],
    ['2606:4700:4700::1111', false],
    ['::ffff:8.8.8.8', false],
    ['64:ff9b::808:808', false],
    ['2002:808:808::', false],
  ];
  for (const [address, isPrivate] of cases) {
    it(`${address} is ${isPrivate ? 'refused' : 'allowed'}`, () => {
      expect(isPrivateAddress(address)).toBe(isPrivate);
    });
  }
});

describe('the lookup every webhook connection uses', () => {
  const dns = new TestDns();
  dns.mxFor('unused.example', 'public.hooks.example', ['93.184.215.14']);
  dns.mxFor('unused2.example', 'rebound.hooks.example', ['127.0.0.1']);
  dns.mxFor('unused3.example', 'mixed.hooks.example', ['93.184.215.14', '10.0.0.1']);

  it('a public name resolves; a name that now points at loopback (DNS rebinding) is refused', async () => {
    expect(await resolveGuardedHost(dns, 'public.hooks.example', false)).toEqual(['93.184.215.14']);
    await expect(resolveGuardedHost(dns, 'rebound.hooks.example', false)).rejects.toThrow(
      /resolves only to addresses that are not public \(127\.0\.0\.1\)/,
    );
    expect(await resolveGuardedHost(dns, 'rebound.hooks.example', true)).toEqual(['127.0.0.1']);
  });

  it('only the public addresses of a mixed answer are used; IP literals are checked too', async () => {
    expect(await resolveGuardedHost(dns, 'mixed.hooks.example', false)).toEqual(['93.184.215.14']);
    await expect(resolveGuardedHost(dns, '[::1]', false)).rejects.toThrow(/not a public address/);
    await expect(resolveGuardedHost(dns, 'missing.hooks.example', false)).rejects.toThrow(
      'DNS: no such host (missing.hooks.example)',
    );
  });

  it('answers in both forms of the socket lookup callback', async () => {
    const lookup = guardedLookup(dns, false);
    const single = await new Promise<unknown[]>((resolve) =>
      lookup('public.hooks.example', {}, (...args) => resolve(args)),
    );
    expect(single).toEqual([null, '93.184.215.14', 4]);
    const all = await new Promise<unknown[]>((resolve) =>
      lookup('public.hooks.example', { all: true }, (...args) => resolve(args)),
    );
    expect(all).toEqual([null, [{ address: '93.184.215.14', family: 4 }]]);
    const refused = await new Promise<unknown[]>((resolve) =>
      lookup('rebound.hooks.example', { all: true }, (...args) => resolve(args)),
    );
    expect((refused[0] as Error).message).toMatch(/not public/);
  });
});
