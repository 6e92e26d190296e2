import { describe, expect, it } from 'vitest';
import { DELIVERY_NICE, planProcesses } from '@/lib/server/plan-processes';

describe('planProcesses', () => {
  it('splits every role into WORKERS serving processes and WORKERS delivering ones, these at a lower priority', () => {
    expect(planProcesses({ roles: ['web', 'worker', 'smtp', 'mx'], workers: 3 })).toEqual([
      { name: 'serving', roles: ['web', 'smtp', 'mx'], count: 3, nice: 0 },
      { name: 'delivering', roles: ['worker'], count: 3, nice: DELIVERY_NICE },
    ]);
    expect(DELIVERY_NICE).toBeGreaterThan(0);
  });

  it('keeps one group, at the usual priority, on a host that runs only the worker role or none of it', () => {
    expect(planProcesses({ roles: ['worker'], workers: 2 })).toEqual([
      { name: 'all', roles: ['worker'], count: 2, nice: 0 },
    ]);
    expect(planProcesses({ roles: ['web', 'smtp'], workers: 4 })).toEqual([
      { name: 'all', roles: ['web', 'smtp'], count: 4, nice: 0 },
    ]);
  });
});
