/**
 * The import case of `npm run bench`: 100,000 contacts with first and last names and 3 attributes
 * (string, number, boolean), uploaded as one CSV through the API to a real server (web and worker
 * roles) and into a list, timed from the first byte sent until the job reads `completed`; with the
 * server process's peak memory (VmHWM) and its memory before the upload.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { fetch } from 'undici';
import { createAccountWithKey } from '../e2e/support/cli';
import { startServer, tempDataDir, trustingAgent } from '../e2e/support/server';
import { api, cpuMs, tracked, type DatabaseName, benchDatabaseEnv } from './bench-support';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);

export type ImportResult = {
  database: DatabaseName;
  rows: number;
  megabytes: number;
  uploadSeconds: number;
  totalSeconds: number;
  rssBeforeMb: number;
  peakBeforeMb: number;
  rssAfterUploadMb: number;
  peakRssMb: number;
  cpuSeconds: number;
  databaseCpuSeconds: number | null;
};

/** kB figures of /proc/<pid>/status (VmRSS now, VmHWM the peak so far), in MB. */
function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

async function defineAttributes(database: DatabaseName, dataDir: string, url: string | null, accountId: string) {
  const statement = `insert into contact_attribute_definitions (account_id, key, type) values ($1, 'plan', 'string'), ($1, 'age', 'number'), ($1, 'vip', 'boolean')`;
  if (database === 'PostgreSQL') {
    const client = new pg.Client({ connectionString: url! });
    await client.connect();
    await client.query(statement, [accountId]);
    await client.end();
    return;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const client = await PGlite.create({ dataDir: path.join(dataDir, 'pglite') });
  await client.query(statement, [accountId]);
  await client.close();
}

/** CPU used by the PostgreSQL backends serving one database (alive now), in ms. */
async function databaseCpuMs(url: string | null): Promise<number | null> {
  if (!url) return null;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  await client.end();
  return rows.reduce((sum, row) => sum + cpuMs(row.pid), 0);
}

function csvOf(rows: number): string {
  const plans = ['free', 'starter', 'pro', 'business', 'enterprise'];
  const lines = ['email,first_name,last_name,plan,age,vip'];
  for (let index = 0; index < rows; index++)
    lines.push(
      `person${index}@import-bench.example,First${index},Last${index},${plans[index % 5]},${18 + (index % 70)},${index % 3 === 0 ? 'true' : 'false'}`,
    );
  return lines.join('\n') + '\n';
}

export async function runImportBench(database: DatabaseName): Promise<ImportResult> {
  const dataDir = tempDataDir('ms-bench-import-');
  const { env, drop } = await benchDatabaseEnv(database, dataDir, 'mailstead_bench_import');
  try {
    // The CLI creates the database with the account; definitions are the dashboard's, written directly.
    const account = await createAccountWithKey(env, 'Import bench');
    await defineAttributes(database, dataDir, env.DATABASE_URL || null, account.accountId);
    const server = tracked(await startServer({ dataDir, env: { ...env, ROLES: 'web,worker' } }));
    const agent = trustingAgent(dataDir);
    const pid = server.process.pid!;
    const list = await api(
      server,
      agent,
      account.apiKey,
      'POST',
      `/v2/accounts/${account.accountId}/lists`,
      { name: 'Bench' },
      201,
    );
    const csv = Buffer.from(csvOf(ROWS));
    const rssBeforeMb = memoryMb(pid, 'VmRSS');
    // The peak so far (start-up, migrations): the import's own peak is only known when it is higher.
    const peakBeforeMb = memoryMb(pid, 'VmHWM');
    const cpuBefore = cpuMs(pid);
    const databaseCpuBefore = await databaseCpuMs(env.DATABASE_URL || null);

    const started = performance.now();
    const response = await fetch(
      `${server.baseUrl}/v2/accounts/${account.accountId}/contacts/import?list_id=${list.id}`,
      {
        method: 'POST',
        body: csv,
        headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'text/csv' },
        dispatcher: agent,
      },
    );
    const accepted = (await response.json()) as { id: string };
    if (response.status !== 202) throw new Error(`upload: ${response.status} ${JSON.stringify(accepted)}`);
    const uploadSeconds = (performance.now() - started) / 1000;
    const rssAfterUploadMb = memoryMb(pid, 'VmRSS');
    let job: { status: string; counts: { created: number; errors: number }; failure_reason: string | null };
    for (;;) {
      job = (await api(
        server,
        agent,
        account.apiKey,
        'GET',
        `/v2/accounts/${account.accountId}/contacts/import/${accepted.id}`,
      )) as typeof job;
      if (job.status === 'completed' || job.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const totalSeconds = (performance.now() - started) / 1000;
    if (job.status !== 'completed' || job.counts.created !== ROWS || job.counts.errors !== 0)
      throw new Error(`import ended ${JSON.stringify(job)}`);
    const databaseCpuAfter = await databaseCpuMs(env.DATABASE_URL || null);
    const databaseCpuSeconds =
      databaseCpuAfter === null || databaseCpuBefore === null ? null : (databaseCpuAfter - databaseCpuBefore) / 1000;
    const result = {
      databaseCpuSeconds,
      database,
      rows: ROWS,
      megabytes: csv.length / 1e6,
      uploadSeconds,
      totalSeconds,
      rssBeforeMb,
      peakBeforeMb,
      rssAfterUploadMb,
      peakRssMb: memoryMb(pid, 'VmHWM'),
      cpuSeconds: (cpuMs(pid) - cpuBefore) / 1000,
    };
    await server.stop();
    await agent.close();
    return result;
  } finally {
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printImportResults(results: ImportResult[]) {
  console.log(
    '\n| database   | rows    | file (MB) | upload (s) | until completed (s) | rows/s  | server CPU (s) | PostgreSQL CPU (s) | RSS before (MB) | peak before (MB) | RSS after upload (MB) | peak RSS (MB) |',
  );
  console.log(
    '|------------|---------|-----------|------------|---------------------|---------|----------------|--------------------|-----------------|------------------|-----------------------|---------------|',
  );
  for (const result of results) {
    const cells = [
      result.database.padEnd(10),
      String(result.rows).padStart(7),
      result.megabytes.toFixed(1).padStart(9),
      result.uploadSeconds.toFixed(2).padStart(10),
      result.totalSeconds.toFixed(2).padStart(19),
      String(Math.round(result.rows / result.totalSeconds)).padStart(7),
      result.cpuSeconds.toFixed(1).padStart(14),
      (result.databaseCpuSeconds === null ? '-' : result.databaseCpuSeconds.toFixed(1)).padStart(18),
      result.rssBeforeMb.toFixed(0).padStart(15),
      result.peakBeforeMb.toFixed(0).padStart(16),
      result.rssAfterUploadMb.toFixed(0).padStart(21),
      result.peakRssMb.toFixed(0).padStart(13),
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
}
