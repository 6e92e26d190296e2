import { spawnSync } from 'node:child_process';
import cluster from 'node:cluster';
import path from 'node:path';
import { AppError } from '@/lib/shared/errors';
import { ConfigError, loadConfig } from '@/lib/server/config';
import type { Config } from '@/lib/server/config-settings';
import { hasDashboardBuild, PROJECT_ROOT } from '@/lib/server/dashboard';
import { acquireDataDirLock } from '@/lib/server/data-dir-lock';
import { createLogger } from '@/lib/server/logger';
import type { OperatorCommand } from '@/lib/server/operator-commands';
import type { startClusterOperations } from '@/lib/server/operations-server';
import { StartupError } from '@/lib/server/startup-error';
import { planProcesses, processCount } from '@/lib/server/plan-processes';
import { PROCESS_NICE_ENV, READY_MESSAGE, superviseWorkers } from '@/lib/server/supervise-workers';
import { lowerProcessPriority } from '@/lib/shared/thread-priority';
import { parse, UsageError } from './parse-command';

// The server's modules (the dashboard, the database, every role) are imported where a command
// needs them: loading them all costs about 2 s of CPU, which `accounts create` and a usage error
// do not need (the end-to-end suites run the command a few hundred times).

const USAGE = `usage: mailstead <command>

  start [--no-build]                    run the server (builds the dashboard first if it has no build)
  migrate                               apply pending database migrations
  doctor [--json]                       check TLS, PUBLIC_URL, ports, clock, migrations, master key, data
                                        directory, DNS and verified domains; exit 1 when a check fails
  backup FILE [--force] [--json]        write a backup of the database (and its manifest) to FILE, the
                                        server running or not; --force replaces an existing FILE
  restore FILE [--json]                 restore a backup into DATA_DIR (which must hold no database) or
                                        DATABASE_URL's database (which must be empty), under the same
                                        master key (MAILSTEAD_SECRET or master.key); exit 1 when refused
  accounts create --name NAME --owner-email EMAIL --owner-password PASSWORD [--api-key] [--json]
  accounts list [--json]
  accounts set-tier ACCOUNT_ID standard|partner
  accounts suspend ACCOUNT_ID [--reason TEXT]
  accounts unsuspend ACCOUNT_ID
  accounts v1-key ACCOUNT_ID --label LABEL [--json]
                                        a key for the legacy POST /v1/email/send (shown once)
  accounts add-member ACCOUNT_ID --email EMAIL --password PASSWORD --role ROLE
                                        ROLE: Administrator, Developer, Analyst or "Billing Manager"

  users reset-password EMAIL            print a link that sets a new password (works once, for an hour);
                                        every session of the user ends when it is used
  users disable-two-factor EMAIL        turn off two-factor sign-in of a user who lost their codes

  events list ACCOUNT_ID [--type TYPE] [--limit N] [--json]
                                        an account's recent events (domain.dns_error, message.*, ...)

Configuration comes from the environment (see docs/configuration.md).`;

async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE + '\n');
    return command ? 0 : 2;
  }
  const config = loadConfig();
  if (command === 'start') return start(config, [sub, ...rest].filter(Boolean) as string[]);
  if (command === 'migrate') return run(config, 'migrate', {}, () => 'migrations applied');
  if (command === 'doctor') return doctor(config, [sub, ...rest].filter(Boolean) as string[]);
  if (command === 'accounts') return accounts(config, sub, rest);
  if (command === 'backup' || command === 'restore')
    return backupOrRestore(
      config,
      command,
      [sub, ...rest].filter((arg) => arg !== undefined),
    );
  if (command === 'users' && sub === 'reset-password') {
    const { positionals } = parse(rest, {}, 1);
    return run(config, 'users.reset-password', { email: positionals[0] }, (result) => {
      const link = result as { email: string; url: string; expires_at: string };
      return `reset link for ${link.email}, works once until ${link.expires_at}:\n${link.url}`;
    });
  }
  if (command === 'users' && sub === 'disable-two-factor') {
    const { positionals } = parse(rest, {}, 1);
    return run(config, 'users.disable-two-factor', { email: positionals[0] }, (result) => {
      const { email } = result as { email: string };
      return `two-factor sign-in is off for ${email}: they sign in with their password, and can set it up again`;
    });
  }
  if (command === 'events' && sub === 'list') {
    const { values, positionals } = parse(
      rest,
      { type: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean', default: false } },
      1,
    );
    return run(
      config,
      'events.list',
      { account_id: positionals[0], type: values.type, limit: values.limit },
      (result) => {
        const rows = result as { id: string; type: string; created_at: string; payload: unknown }[];
        if (values.json) return JSON.stringify(rows);
        return rows.length === 0
          ? 'no events'
          : rows.map((row) => `${row.created_at}  ${row.type.padEnd(24)} ${JSON.stringify(row.payload)}`).join('\n');
      },
    );
  }
  throw new UsageError(`unknown command "${command}"`);
}

async function accounts(config: Config, sub: string | undefined, args: string[]): Promise<number> {
  if (sub === 'create') {
    const { values } = parse(args, {
      name: { type: 'string' },
      'owner-email': { type: 'string' },
      'owner-password': { type: 'string' },
      'api-key': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    });
    for (const required of ['name', 'owner-email', 'owner-password'] as const) {
      if (values[required] === undefined) throw new UsageError(`accounts create needs --${required}`);
    }
    return run(
      config,
      'accounts.create',
      {
        name: values.name,
        owner_email: values['owner-email'],
        owner_password: values['owner-password'],
        with_api_key: values['api-key'],
      },
      (result) => {
        const created = result as { account_id: string; owner_id: string; api_key: string | null };
        return values.json
          ? JSON.stringify(created)
          : [
              `account  ${created.account_id}`,
              `owner    ${created.owner_id}`,
              ...(created.api_key ? [`api key  ${created.api_key}  (shown once: store it now)`] : []),
            ].join('\n');
      },
    );
  }
  if (sub === 'list') {
    const { values } = parse(args, { json: { type: 'boolean', default: false } });
    return run(config, 'accounts.list', {}, (result) => {
      const rows = result as { id: string; name: string; tier: string; status: string; owner_email: string }[];
      if (values.json) return JSON.stringify(rows);
      return rows.length === 0
        ? 'no accounts'
        : rows
            .map((row) => `${row.id}  ${row.tier.padEnd(8)} ${row.status.padEnd(9)} ${row.name} <${row.owner_email}>`)
            .join('\n');
    });
  }
  if (sub === 'set-tier') {
    const { positionals } = parse(args, {}, 2);
    return run(
      config,
      'accounts.set-tier',
      { account_id: positionals[0], tier: positionals[1] },
      () => `account ${positionals[0]} is now ${positionals[1]}`,
    );
  }
  if (sub === 'suspend' || sub === 'unsuspend') {
    const { values, positionals } = parse(args, { reason: { type: 'string' } }, 1);
    return run(
      config,
      `accounts.${sub}`,
      { account_id: positionals[0], reason: values.reason },
      () => `account ${positionals[0]} ${sub}ed`,
    );
  }
  if (sub === 'v1-key') {
    const { values, positionals } = parse(
      args,
      { label: { type: 'string' }, json: { type: 'boolean', default: false } },
      1,
    );
    if (values.label === undefined) throw new UsageError('accounts v1-key needs --label');
    return run(config, 'accounts.v1-key', { account_id: positionals[0], label: values.label }, (result) => {
      const created = result as { id: string; key: string };
      return values.json ? JSON.stringify(created) : `v1 key ${created.id}: ${created.key}  (shown once: store it now)`;
    });
  }
  if (sub === 'add-member') {
    const { values, positionals } = parse(
      args,
      { email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string' } },
      1,
    );
    for (const required of ['email', 'password', 'role'] as const) {
      if (values[required] === undefined) throw new UsageError(`accounts add-member needs --${required}`);
    }
    return run(
      config,
      'accounts.add-member',
      { account_id: positionals[0], email: values.email, password: values.password, role: values.role },
      (result) => {
        const added = result as { user_id: string; role: string };
        return `${values.email} (${added.user_id}) is now ${added.role} of ${positionals[0]}`;
      },
    );
  }
  throw new UsageError(
    sub
      ? `unknown accounts command "${sub}"`
      : 'accounts needs a command: create, list, set-tier, suspend, unsuspend, add-member',
  );
}

async function doctor(config: Config, args: string[]): Promise<number> {
  const { values } = parse(args, { json: { type: 'boolean', default: false } });
  const { runDoctor, formatDoctorReport } = await import('@/lib/server/doctor/run-doctor');
  const report = await runDoctor(config);
  process.stdout.write((values.json ? JSON.stringify(report) : formatDoctorReport(report)) + '\n');
  return report.ok ? 0 : 1;
}

async function backupOrRestore(config: Config, command: 'backup' | 'restore', args: string[]): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      json: { type: 'boolean', default: false },
      ...(command === 'backup' ? { force: { type: 'boolean', default: false } } : {}),
    },
    1,
  );
  // Absolute here: a running server writes the file, and its working directory is not ours.
  const file = path.resolve(positionals[0]);
  const size = (bytes: number) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.ceil(bytes / 1e3)} kB`);
  if (command === 'backup') {
    const { runBackup } = await import('@/lib/server/backup/run-backup');
    const { migrationLabel } = await import('@/lib/server/backup/backup-manifest');
    const result = await runBackup(config, { file, force: values.force === true });
    process.stdout.write(
      (values.json
        ? JSON.stringify(result)
        : `backup written to ${result.file} (${size(result.bytes)}, ${result.database}, migration ${migrationLabel(result.migration)})`) +
        '\n',
    );
    return 0;
  }
  const { restoreBackup } = await import('@/lib/server/backup/restore-backup');
  const { migrationLabel } = await import('@/lib/server/backup/backup-manifest');
  const result = await restoreBackup(config, { file });
  const into = result.database === 'pglite' ? `DATA_DIR ${result.target}` : `database ${result.target}`;
  process.stdout.write(
    (values.json
      ? JSON.stringify(result)
      : `restored ${result.file} (made ${result.created_at}, migration ${migrationLabel(result.migration)}) into ${into}: start the server on it`) +
      '\n',
  );
  return 0;
}

/**
 * Runs an operator command: through the running server when it holds the embedded database,
 * otherwise directly (applying pending migrations first).
 */
async function run(
  config: Config,
  command: OperatorCommand,
  args: Record<string, unknown>,
  format: (result: unknown) => string,
): Promise<number> {
  const logger = createLogger({ level: config.logLevel === 'info' ? 'warn' : config.logLevel, toStderr: true });
  let result: unknown;
  if (!config.databaseUrl) {
    const lock = acquireDataDirLock(config.dataDir);
    if ('heldBy' in lock) {
      const { sendControlCommand } = await import('@/lib/server/control-socket');
      const response = await sendControlCommand(config.dataDir, { command, args }).catch((error: Error) => {
        throw new StartupError(
          `a Mailstead server (pid ${lock.heldBy}) holds ${config.dataDir} but its control socket did not answer: ${error.message}`,
        );
      });
      if (!response.ok)
        throw response.kind === 'usage'
          ? new UsageError(response.message)
          : new AppError((response.kind as never) ?? 'invalid_input', response.message);
      process.stdout.write(format(response.result) + '\n');
      return 0;
    }
    try {
      result = await runLocally(config, logger, command, args);
    } finally {
      lock.release();
    }
  } else {
    result = await runLocally(config, logger, command, args);
  }
  process.stdout.write(format(result) + '\n');
  return 0;
}

async function runLocally(
  config: Config,
  logger: ReturnType<typeof createLogger>,
  command: OperatorCommand,
  args: Record<string, unknown>,
) {
  const [{ buildRegistry }, { OPERATOR_COMMANDS }] = await Promise.all([
    import('@/lib/server/registry'),
    import('@/lib/server/operator-commands'),
  ]);
  const registry = await buildRegistry(config, logger);
  try {
    return await OPERATOR_COMMANDS[command](registry, args);
  } finally {
    await registry.close();
  }
}

async function start(config: Config, args: string[]): Promise<number> {
  const { values } = parse(args, {
    'no-build': { type: 'boolean', default: false },
    dev: { type: 'boolean', default: false },
  });
  if (cluster.isWorker) {
    lowerProcessPriority(Number(process.env[PROCESS_NICE_ENV] ?? 0));
    return serve(config, createLogger({ level: config.logLevel }).child({ pid: process.pid }), {
      isClusterWorker: true,
    });
  }
  if (config.roles.includes('web') && !values['no-build'] && !hasDashboardBuild()) {
    process.stderr.write('mailstead: no dashboard build found; building it once (npm run build)...\n');
    const env = { ...process.env, MAILSTEAD_BUILD_SKIP_TYPECHECK: '1', NEXT_TELEMETRY_DISABLED: '1' };
    const build = spawnSync(process.execPath, [`${PROJECT_ROOT}/node_modules/next/dist/bin/next`, 'build'], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 2, 2],
      env,
    });
    if (build.status !== 0) throw new StartupError('the dashboard build failed (see above)');
  }
  const logger = createLogger({ level: config.logLevel });
  if (config.workers > 1) {
    const held: { operations: Awaited<ReturnType<typeof startClusterOperations>> } = { operations: null };
    const groups = planProcesses(config);
    let workers = () => ({ ready: 0, expected: processCount(groups) });
    const prepare = async () => {
      const [{ prepareSharedState }, { startClusterOperations }] = await Promise.all([
        import('@/lib/server/start-server'),
        import('@/lib/server/operations-server'),
      ]);
      await prepareSharedState(config, logger);
      held.operations = await startClusterOperations(config, logger, () => workers());
    };
    const code = await superviseWorkers({ groups, logger, prepare, onWorkers: (counts) => (workers = counts) });
    await held.operations?.close();
    return code;
  }
  return serve(config, logger, { isClusterWorker: false });
}

/** One process running the roles: the whole server (WORKERS=1) or a worker of the cluster. */
async function serve(
  config: Config,
  logger: ReturnType<typeof createLogger>,
  options: { isClusterWorker: boolean },
): Promise<number> {
  // Signals are handled from the first moment: a stop that arrives while the server is still
  // starting waits for the start to finish, then closes everything in order.
  const startup = import('@/lib/server/start-server').then(({ startServer }) => startServer(config, logger, options));
  let isStopping = false;
  const shutdown = (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    logger.info({ signal }, 'shutting down');
    startup
      .then((server) => server.stop())
      .then(
        () => process.exit(0),
        (error) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  await startup;
  if (options.isClusterWorker) process.send?.(READY_MESSAGE);
  await new Promise(() => {});
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`mailstead: ${error.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    if (error instanceof ConfigError || error instanceof StartupError || error instanceof AppError) {
      process.stderr.write(`mailstead: ${error.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`mailstead: unexpected error: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
