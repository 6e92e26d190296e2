import { describe, expect, it } from 'vitest';
import { createReadiness, readinessReport } from '@/lib/server/readiness';

describe('readinessReport', () => {
  const base = {
    roles: ['web', 'worker'] as const,
    started: new Set(['web', 'worker'] as const),
    isStopping: false,
    timeoutMs: 2000,
  };

  it('is ready when the database answers with every migration and every role started', () => {
    expect(readinessReport({ ...base, roles: [...base.roles], database: 'ok', hasMigrations: true })).toEqual({
      status: 'ready',
      failing: [],
      checks: { database: 'ok', migrations: 'ok', roles: { web: 'started', worker: 'started' }, process: 'running' },
    });
  });

  it.each([
    [
      { database: 'unreachable' as const, hasMigrations: null },
      ['database', 'migrations'],
      { database: 'unreachable', migrations: 'unknown' },
    ],
    [
      { database: 'timeout' as const, hasMigrations: null },
      ['database', 'migrations'],
      { database: 'no answer within 2000 ms', migrations: 'unknown' },
    ],
    [
      { database: 'not open yet' as const, hasMigrations: null },
      ['database', 'migrations'],
      { database: 'not open yet', migrations: 'unknown' },
    ],
    [{ database: 'ok' as const, hasMigrations: false }, ['migrations'], { database: 'ok', migrations: 'pending' }],
  ])('names what is not ready: %o', (found, failing, checks) => {
    const report = readinessReport({ ...base, roles: [...base.roles], ...found });
    expect(report.status).toBe('not ready');
    expect(report.failing).toEqual(failing);
    expect(report.checks).toMatchObject(checks);
  });

  it('names the roles that have not started, and a process that is stopping', () => {
    const report = readinessReport({
      ...base,
      roles: ['web', 'worker', 'mx'],
      started: new Set(['web']),
      isStopping: true,
      database: 'ok',
      hasMigrations: true,
    });
    expect(report.failing).toEqual(['role:worker', 'role:mx', 'process']);
    expect(report.checks.roles).toEqual({ web: 'started', worker: 'starting', mx: 'starting' });
    expect(report.checks.process).toBe('stopping');
  });
});

describe('createReadiness', () => {
  it('waits for the database until a probe is set, then for each role', async () => {
    const readiness = createReadiness({ roles: ['worker'], timeoutMs: 1000 });
    expect((await readiness.check()).failing).toEqual(['database', 'migrations', 'role:worker']);
    readiness.setDatabaseProbe(async () => ({ hasMigrations: true }));
    expect((await readiness.check()).failing).toEqual(['role:worker']);
    readiness.markStarted('worker');
    expect((await readiness.check()).status).toBe('ready');
    readiness.markStopping();
    expect((await readiness.check()).failing).toEqual(['process']);
  });

  it('reports a failing probe as an unreachable database, without its error text', async () => {
    const readiness = createReadiness({ roles: [], timeoutMs: 1000 });
    readiness.setDatabaseProbe(async () => {
      throw new Error('connect ECONNREFUSED postgres://user:secret@db:5432');
    });
    const report = await readiness.check();
    expect(report).toMatchObject({
      status: 'not ready',
      failing: ['database', 'migrations'],
      checks: { database: 'unreachable' },
    });
    expect(JSON.stringify(report)).not.toMatch(/secret|ECONNREFUSED/);
  });

  it('gives up on a hanging probe after the timeout, and shares that one query between checks', async () => {
    const readiness = createReadiness({ roles: [], timeoutMs: 50 });
    let calls = 0;
    let finish: (value: { hasMigrations: boolean }) => void = () => {};
    readiness.setDatabaseProbe(() => {
      calls++;
      // The first query hangs until released; later ones answer at once.
      return calls === 1 ? new Promise((resolve) => (finish = resolve)) : Promise.resolve({ hasMigrations: true });
    });
    const started = Date.now();
    const reports = await Promise.all([readiness.check(), readiness.check()]);
    expect(Date.now() - started).toBeLessThan(1000);
    for (const report of reports) expect(report.checks.database).toBe('no answer within 50 ms');
    expect((await readiness.check()).checks.database).toBe('no answer within 50 ms');
    expect(calls).toBe(1);
    finish({ hasMigrations: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect((await readiness.check()).status).toBe('ready');
    expect(calls).toBe(2);
  });
});
