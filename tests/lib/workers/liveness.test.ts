import { describe, expect, it } from 'vitest';
import { isProcessAlive, isWorkerDead, STALE_AFTER_MS, type Observer } from '@/lib/workers/liveness';

const HERE = 'box pid:[1]';
const observer = (alive: number[]): Observer => ({
  workerId: 'me',
  host: HERE,
  pid: 100,
  isProcessAlive: (pid) => alive.includes(pid),
});

describe('isWorkerDead', () => {
  const worker = (fields: Partial<{ id: string; hostname: string; pid: number; silentMs: number }>) => ({
    id: 'w',
    hostname: HERE,
    pid: 200,
    silentMs: 1_000,
    ...fields,
  });
  it.each([
    ['itself, even silent', worker({ id: 'me', pid: 100, silentMs: STALE_AFTER_MS * 10 }), false],
    ['this host, process alive, beating', worker({}), false],
    ['this host, process gone', worker({ pid: 300 }), true],
    ['this host, its pid is now ours', worker({ pid: 100 }), true],
    ['another host, beating (its pid means nothing here)', worker({ hostname: 'other pid:[1]', pid: 300 }), false],
    ['same hostname, another pid namespace', worker({ hostname: 'box pid:[2]', pid: 300 }), false],
    ['another host, silent too long', worker({ hostname: 'other pid:[1]', silentMs: STALE_AFTER_MS + 1 }), true],
    ['this host, alive but silent too long', worker({ silentMs: STALE_AFTER_MS + 1 }), true],
  ])('%s', (_label, sighting, expected) => {
    expect(isWorkerDead(sighting, observer([100, 200]))).toBe(expected);
  });
});

describe('isProcessAlive', () => {
  it('this process is alive; a pid beyond pid_max is not', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(2 ** 22 + 1)).toBe(false);
  });
});
