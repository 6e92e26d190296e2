import type { Role } from './config';

/** What /readyz found; `failing` names each check that is not ok. No error text: probes are unauthenticated. */
export type ReadinessReport = {
  status: 'ready' | 'not ready';
  failing: string[];
  checks: {
    database: string;
    migrations: string;
    roles: Partial<Record<Role, 'started' | 'starting'>>;
    process: 'running' | 'stopping';
  };
};

/** Reachability and migrations in one probe (see hasShippedMigrations); throws when the database does not answer. */
export type DatabaseProbe = () => Promise<{ hasMigrations: boolean }>;

type State = {
  database: 'ok' | 'not open yet' | 'unreachable' | 'timeout';
  hasMigrations: boolean | null;
  roles: Role[];
  started: ReadonlySet<Role>;
  isStopping: boolean;
  timeoutMs: number;
};

/** The report for one probe's findings: ready only when every check is. */
export function readinessReport(state: State): ReadinessReport {
  const database = state.database === 'timeout' ? `no answer within ${state.timeoutMs} ms` : state.database;
  const migrations = state.hasMigrations === null ? 'unknown' : state.hasMigrations ? 'ok' : 'pending';
  const roles = Object.fromEntries(
    state.roles.map((role) => [role, state.started.has(role) ? 'started' : 'starting'] as const),
  );
  const failing = [
    ...(state.database === 'ok' ? [] : ['database']),
    ...(migrations === 'ok' ? [] : ['migrations']),
    ...state.roles.filter((role) => !state.started.has(role)).map((role) => `role:${role}`),
    ...(state.isStopping ? ['process'] : []),
  ];
  return {
    status: failing.length === 0 ? 'ready' : 'not ready',
    failing,
    checks: { database, migrations, roles, process: state.isStopping ? 'stopping' : 'running' },
  };
}

/**
 * The process's readiness for /readyz: the database answers (within `timeoutMs`) and has this
 * code's migrations, every role this process was asked to run has started, and it is not stopping.
 * Concurrent checks share one database query, so a hanging database cannot pile them up.
 */
export function createReadiness(options: { roles: Role[]; timeoutMs: number }) {
  const started = new Set<Role>();
  let probe: DatabaseProbe | null = null;
  let isStopping = false;
  // At most one database query outstanding: a probe that hangs is shared by every check until it settles.
  let probing: Promise<{ hasMigrations: boolean }> | null = null;

  const check = async (): Promise<ReadinessReport> => {
    const base = { roles: options.roles, started, isStopping, timeoutMs: options.timeoutMs };
    if (!probe) return readinessReport({ ...base, database: 'not open yet', hasMigrations: null });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), options.timeoutMs)),
    );
    try {
      probing ??= probe().finally(() => (probing = null));
      const found = await Promise.race([probing, timeout]);
      if (found === 'timeout') return readinessReport({ ...base, database: 'timeout', hasMigrations: null });
      return readinessReport({ ...base, database: 'ok', hasMigrations: found.hasMigrations });
    } catch {
      return readinessReport({ ...base, database: 'unreachable', hasMigrations: null });
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    setDatabaseProbe(next: DatabaseProbe) {
      probe = next;
    },
    markStarted(role: Role) {
      started.add(role);
    },
    markStopping() {
      isStopping = true;
    },
    check,
  };
}
