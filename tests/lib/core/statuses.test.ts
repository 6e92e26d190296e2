import { describe, expect, it } from 'vitest';
import { displayStatus, parseStatusFilter } from '@/lib/core/messages/statuses';

describe('message statuses', () => {
  it('shows the contract words, with Sandbox for sandbox outcomes', () => {
    expect(displayStatus('queued', false)).toBe('Received');
    expect(displayStatus('scheduled', true)).toBe('Received');
    expect(displayStatus('delivered', true)).toBe('Sandbox Delivered');
    expect(displayStatus('bounced', false)).toBe('Bounced');
  });

  it('parses filters case- and space-tolerantly and reports unknown names', () => {
    const parsed = parseStatusFilter(' delivered ,SANDBOX   bounced,Received, Exploded');
    expect(parsed.unknown).toEqual(['exploded']);
    expect(parsed.pairs).toEqual([
      { states: ['delivered'], isSandbox: false },
      { states: ['bounced'], isSandbox: true },
      { states: ['scheduled', 'queued'], isSandbox: null },
    ]);
  });
});
