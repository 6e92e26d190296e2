import { describe, expect, it } from 'vitest';
import { MAX_SPACING_MS, ProviderPacing, RECOVER_AFTER_QUIET_MS } from '@/lib/mail/provider-pacing';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 10, 42) + ms);

describe('ProviderPacing', () => {
  it('a provider that never throttled keeps the normal limit and costs no state', () => {
    const pacing = new ProviderPacing({ normalConcurrency: 10, raiseAfterAccepted: 3 });
    for (let i = 0; i < 100; i++) pacing.accepted('gmail');
    expect(pacing.limit('gmail')).toBe(10);
    expect(pacing.states()).toEqual([]);
    expect(pacing.takeChanged(0)).toEqual([]);
  });

  it('halves on a throttling reply (once per second for replies in flight), floor 1, and records since when', () => {
    const pacing = new ProviderPacing({ normalConcurrency: 10, raiseAfterAccepted: 3 });
    pacing.throttled('gmail', at(0));
    pacing.throttled('gmail', at(10));
    pacing.throttled('gmail', at(500));
    expect(pacing.limit('gmail')).toBe(5);
    pacing.throttled('gmail', at(1000));
    expect(pacing.limit('gmail')).toBe(2);
    pacing.throttled('gmail', at(2000));
    pacing.throttled('gmail', at(3000));
    expect(pacing.limit('gmail')).toBe(1);
    const [state] = pacing.states();
    expect(state).toMatchObject({ key: 'gmail', concurrency: 1, normalConcurrency: 10, throttledReplies: 6 });
    expect(state.slowedSince).toEqual(at(0));
    expect(pacing.limit('microsoft')).toBe(10);
  });

  it('raises by one per N accepted messages back to normal, then is no longer slowed', () => {
    const pacing = new ProviderPacing({ normalConcurrency: 4, raiseAfterAccepted: 3 });
    pacing.throttled('yahoo', at(0));
    expect(pacing.limit('yahoo')).toBe(2);
    pacing.accepted('yahoo');
    pacing.accepted('yahoo');
    expect(pacing.limit('yahoo')).toBe(2);
    pacing.accepted('yahoo');
    expect(pacing.limit('yahoo')).toBe(3);
    for (let i = 0; i < 3; i++) pacing.accepted('yahoo');
    expect(pacing.limit('yahoo')).toBe(4);
    expect(pacing.states()[0].slowedSince).toBeNull();
    for (let i = 0; i < 30; i++) pacing.accepted('yahoo');
    expect(pacing.limit('yahoo')).toBe(4);
  });

  it('at one connection, further throttling spaces the messages out (1 s, doubled, at most 30 s); accepted mail undoes the spacing first', () => {
    const pacing = new ProviderPacing({ normalConcurrency: 2, raiseAfterAccepted: 2 });
    pacing.throttled('gmail', at(0));
    expect([pacing.limit('gmail'), pacing.spacing('gmail')]).toEqual([1, 0]);
    pacing.throttled('gmail', at(1000));
    expect([pacing.limit('gmail'), pacing.spacing('gmail')]).toEqual([1, 1000]);
    // Replies in flight are one signal: the spacing doubles at most once a second too.
    pacing.throttled('gmail', at(1500));
    expect(pacing.spacing('gmail')).toBe(1000);
    pacing.throttled('gmail', at(2500));
    expect(pacing.spacing('gmail')).toBe(2000);
    for (let second = 4; second < 12; second++) pacing.throttled('gmail', at(second * 1000));
    expect(pacing.spacing('gmail')).toBe(MAX_SPACING_MS);
    expect(pacing.states()[0]).toMatchObject({ concurrency: 1, spacingMs: MAX_SPACING_MS });
    expect(pacing.spacing('microsoft')).toBe(0);

    const steps: [number, number][] = [];
    for (let i = 0; i < 14; i++) {
      pacing.accepted('gmail');
      if (i % 2 === 1) steps.push([pacing.limit('gmail'), pacing.spacing('gmail')]);
    }
    // 30 s, 15, 7.5, 3.75, 1.875 (then below 2 s: none), and only then a second connection.
    expect(steps).toEqual([
      [1, 15_000],
      [1, 7500],
      [1, 3750],
      [1, 1875],
      [1, 0],
      [2, 0],
      [2, 0],
    ]);
    expect(pacing.states()[0].slowedSince).toBeNull();
  });

  it('a spaced provider quiet for the recovery time is back to normal, spacing too', () => {
    const pacing = new ProviderPacing({ normalConcurrency: 1, raiseAfterAccepted: 1000 });
    pacing.throttled('gmail', at(0));
    pacing.throttled('gmail', at(1000));
    expect(pacing.spacing('gmail')).toBe(2000);
    pacing.takeChanged(at(1000).getTime());
    const [state] = pacing.takeChanged(at(1000 + RECOVER_AFTER_QUIET_MS).getTime());
    expect(state).toMatchObject({ concurrency: 1, spacingMs: 0, slowedSince: null });
    expect(pacing.spacing('gmail')).toBe(0);
  });

  it('a throttling reply restarts the count of accepted messages', () => {
    const pacing = new ProviderPacing({ normalConcurrency: 8, raiseAfterAccepted: 3 });
    pacing.throttled('gmail', at(0));
    pacing.accepted('gmail');
    pacing.accepted('gmail');
    pacing.throttled('gmail', at(100));
    pacing.accepted('gmail');
    expect(pacing.limit('gmail')).toBe(4);
  });

  it('hands out changed states once, and slowed ones again after 15 s', () => {
    const pacing = new ProviderPacing({ normalConcurrency: 8, raiseAfterAccepted: 3 });
    pacing.throttled('gmail', at(0));
    expect(pacing.takeChanged(1000).map((state) => state.key)).toEqual(['gmail']);
    expect(pacing.takeChanged(2000)).toEqual([]);
    expect(pacing.takeChanged(16_000).map((state) => state.key)).toEqual(['gmail']);
  });

  it('keys: named providers, each other domain by itself, the relay as one', () => {
    expect(ProviderPacing.keyFor('gmail', 'example.com')).toBe('gmail');
    expect(ProviderPacing.keyFor('other', 'example.org')).toBe('domain:example.org');
    expect(ProviderPacing.keyFor(null, 'example.org')).toBe('relay');
  });

  it('a small destination that never sends enough to be raised is back to normal after a quiet while, then forgotten', () => {
    const pacing = new ProviderPacing({ normalConcurrency: 10, raiseAfterAccepted: 50 });
    pacing.throttled('domain:small.example', at(0));
    pacing.accepted('domain:small.example');
    expect(pacing.takeChanged(at(1000).getTime())).toMatchObject([{ key: 'domain:small.example', concurrency: 5 }]);
    expect(pacing.takeChanged(at(RECOVER_AFTER_QUIET_MS - 1).getTime())).toMatchObject([{ concurrency: 5 }]);
    expect(pacing.limit('domain:small.example')).toBe(5);
    // Quiet for long enough: written once more as normal, then no state is kept.
    expect(pacing.takeChanged(at(RECOVER_AFTER_QUIET_MS).getTime())).toMatchObject([
      { key: 'domain:small.example', concurrency: 10, slowedSince: null },
    ]);
    expect(pacing.limit('domain:small.example')).toBe(10);
    expect(pacing.takeChanged(at(RECOVER_AFTER_QUIET_MS + 1000).getTime())).toEqual([]);
    expect(pacing.states()).toEqual([]);
  });
});
