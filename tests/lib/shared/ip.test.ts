import { describe, expect, it } from 'vitest';
import { anyCidrContains, normalizeIp, parseCidr } from '@/lib/shared/ip';

describe('parseCidr', () => {
  it.each([
    ['10.1.2.3/8', '10.0.0.0/8'],
    ['192.168.1.7', '192.168.1.7/32'],
    ['2001:0db8:0000:0000::1/32', '2001:db8::/32'],
    ['::1', '::1/128'],
    ['::ffff:203.0.113.9', '203.0.113.9/32'],
    ['::ffff:203.0.113.0/120', '203.0.113.0/24'],
    [' 172.16.5.4/12 ', '172.16.0.0/12'],
  ])('%s is canonically %s', (input, expected) => {
    expect(parseCidr(input)?.text).toBe(expected);
  });

  it.each(['10.0.0.256', '10.0.0.0/33', 'example.com', '', '::1/129', '1.2.3'])('%s is not a CIDR', (input) => {
    expect(parseCidr(input)).toBeNull();
  });
});

describe('client IP matching', () => {
  it('normalises IPv4-mapped socket addresses', () => {
    expect(normalizeIp('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeIp('[::1]')).toBe('::1');
    expect(normalizeIp('garbage')).toBeNull();
  });

  it('matches addresses against blocks of the same family only', () => {
    const blocks = [parseCidr('10.0.0.0/8')!, parseCidr('2001:db8::/32')!];
    expect(anyCidrContains(blocks, '10.200.1.1')).toBe(true);
    expect(anyCidrContains(blocks, '::ffff:10.0.0.1')).toBe(true);
    expect(anyCidrContains(blocks, '2001:db8:1::5')).toBe(true);
    expect(anyCidrContains(blocks, '11.0.0.1')).toBe(false);
    expect(anyCidrContains(blocks, null)).toBe(false);
  });
});
