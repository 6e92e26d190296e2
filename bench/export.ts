/**
 * The export case of `npm run bench`: 1,000,000 contacts (PostgreSQL; 100,000 on PGlite) with first
 * and last names and 3 attributes, written straight into the database, then POST /contacts/export
 * to a real server (web and worker roles), timed until the job reads `done` and until its file is
 * downloaded; with the server process's peak memory (VmHWM) and its memory before the export.
 */
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { fetch } from 'undici';
import { createAccountWithKey } from '../e2e/support/cli';
import { startServer, tempDataDir, trustingAgent } from '../e2e/support/server';
import { api, cpuMs, tracked, type DatabaseName, benchDatabaseEnv } from './bench-support';

const CONTACTS: Record<DatabaseName, number> = {
  PostgreSQL: Number(process.env.BENCH_EXPORT_CONTACTS ?? 1_000_000),
  PGlite: Number(process.env.BENCH_EXPORT_CONTACTS_PGLITE ?? 100_000),
};

export type ExportResult = {
  database: DatabaseName;
  contacts: number;
  megabytes: number;
  exportSeconds: number;
  downloadSeconds: number;
  rssBeforeMb: number;
  peakBeforeMb: number;
  peakAfterExportMb: number;
  peakRssMb: number;
  cpuSeconds: number;
  loadAverage: string;
};

function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

/** Definitions and contacts in one statement each: what an import would take minutes to write. */
async function insertContacts(
  database: DatabaseName,
  dataDir: string,
  url: string | null,
  accountId: string,
  count: number,
) {
  const statements = [
    `insert into contact_attribute_definitions (account_id, key, type) values ($1, 'plan', 'string'), ($1, 'age', 'number'), ($1, 'vip', 'boolean')`,
    `insert into contacts (id, account_id, email, first_name, last_name, attributes)
       select gen_random_uuid(), $1, 'person' || g || '@export-bench.example', 'First' || g, 'Last' || g,
              jsonb_build_object('plan', (array['free','starter','pro','business','enterprise'])[1 + g % 5], 'age', 18 + g % 70, 'vip', g % 3 = 0)
       from generate_series(1, ${count}) g`,
  ];
  if (database === 'PostgreSQL') {
    const client = new pg.Client({ connectionString: url! });
    await client.connect();
    for (const statement of statements) await client.query(statement, [accountId]);
    await client.query('analyze contacts');
    await client.end();
    return;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const client = await PGlite.create({ dataDir: path.join(dataDir, 'pglite') });
  for (const statement of statements) await client.query(statement, [accountId]);
  await client.close();
}

export async function runExportBench(database: DatabaseName): Promise<ExportResult> {
  const dataDir = tempDataDir('ms-bench-export-');
  const { env, drop } = await benchDatabaseEnv(database, dataDir, 'mailstead_bench_export');
  const contacts = CONTACTS[database];
  try {
    const account = await createAccountWithKey(env, 'Export bench');
    await insertContacts(database, dataDir, env.DATABASE_URL || null, account.accountId, contacts);
    const server = tracked(
      await startServer({
        dataDir,
        env: {
          ...env,
          ROLES: 'web,worker',
          ...(process.env.CONTACT_EXPORT_PAGE_ROWS
            ? { CONTACT_EXPORT_PAGE_ROWS: process.env.CONTACT_EXPORT_PAGE_ROWS }
            : {}),
        },
      }),
    );
    const agent = trustingAgent(dataDir);
    const pid = server.process.pid!;
    const rssBeforeMb = memoryMb(pid, 'VmRSS');
    const peakBeforeMb = memoryMb(pid, 'VmHWM');
    const cpuBefore = cpuMs(pid);
    const base = `/v2/accounts/${account.accountId}/contacts/export`;

    const started = performance.now();
    const queued = (await api(server, agent, account.apiKey, 'POST', base, {}, 202)) as { id: string };
    let job: { status: string; exported: number; file_url: string | null; byte_size: number | null };
    for (;;) {
      job = (await api(server, agent, account.apiKey, 'GET', `${base}/${queued.id}`)) as typeof job;
      if (job.status === 'done' || job.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const exportSeconds = (performance.now() - started) / 1000;
    if (job.status !== 'done' || job.exported !== contacts) throw new Error(`export ended ${JSON.stringify(job)}`);
    const peakAfterExportMb = memoryMb(pid, 'VmHWM');
    const downloadStarted = performance.now();
    const response = await fetch(`${server.baseUrl}${base}/${queued.id}/file`, {
      headers: { authorization: `Bearer ${account.apiKey}` },
      dispatcher: agent,
    });
    let bytes = 0;
    for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) bytes += piece.byteLength;
    if (bytes !== job.byte_size) throw new Error(`downloaded ${bytes} bytes of ${job.byte_size}`);
    const result: ExportResult = {
      database,
      contacts,
      megabytes: bytes / 1e6,
      exportSeconds,
      downloadSeconds: (performance.now() - downloadStarted) / 1000,
      rssBeforeMb,
      peakBeforeMb,
      peakAfterExportMb,
      peakRssMb: memoryMb(pid, 'VmHWM'),
      cpuSeconds: (cpuMs(pid) - cpuBefore) / 1000,
      loadAverage: os
        .loadavg()
        .map((value) => value.toFixed(1))
        .join(' '),
    };
    await server.stop();
    await agent.close();
    return result;
  } finally {
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printExportResults(results: ExportResult[]) {
  console.log(
    '\n| database   | contacts  | file (MB) | until done (s) | download (s) | contacts/s | server CPU (s) | RSS before (MB) | peak before (MB) | peak after export (MB) | peak after download (MB) | load average |',
  );
  console.log(
    '|------------|-----------|-----------|----------------|--------------|------------|----------------|-----------------|------------------|------------------------|--------------------------|--------------|',
  );
  for (const result of results) {
    const cells = [
      result.database.padEnd(10),
      String(result.contacts).padStart(9),
      result.megabytes.toFixed(1).padStart(9),
      result.exportSeconds.toFixed(2).padStart(14),
      result.downloadSeconds.toFixed(2).padStart(12),
      String(Math.round(result.contacts / result.exportSeconds)).padStart(10),
      result.cpuSeconds.toFixed(1).padStart(14),
      result.rssBeforeMb.toFixed(0).padStart(15),
      result.peakBeforeMb.toFixed(0).padStart(16),
      result.peakAfterExportMb.toFixed(0).padStart(22),
      result.peakRssMb.toFixed(0).padStart(24),
      result.loadAverage.padStart(12),
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
}
