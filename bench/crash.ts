/**
 * `npm run bench:crash`: what a SIGKILL during delivery costs, on PGlite and (when reachable)
 * PostgreSQL. Each round sends 2,000 messages to an MX on loopback, kills the server after a few
 * hundred were delivered, restarts it on the same data and waits until all are delivered; it prints
 * the duplicates per kill (Message-IDs the MX accepted twice), the messages lost, and the time from
 * the restart until the server answers and until every message is delivered.
 */
import { runDeliveryCrash, type CrashRound } from '../e2e/support/delivery-crash';
import { TestDnsServer } from '../e2e/support/dns-server';
import { isPostgresReachable } from './postgres-reachable';

const ROUNDS = Number(process.env.BENCH_CRASH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CRASH_CONNECTIONS ?? 8);
const POSTGRES_URL = process.env.MAILSTEAD_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const dns = new TestDnsServer();
await dns.start();
process.env.MAILSTEAD_TEST_DNS = `127.0.0.1:${dns.port}`;
process.env.MAILSTEAD_TEST_DNS_CONTROL = dns.controlUrl;

const results: { database: string; rounds: CrashRound[] }[] = [];
const databases: { database: string; adminUrl: string | null }[] = [];
if (process.env.BENCH_ONLY !== 'postgres') databases.push({ database: 'PGlite', adminUrl: null });
if (process.env.BENCH_ONLY !== 'pglite') {
  if (await isPostgresReachable(POSTGRES_URL)) databases.push({ database: 'PostgreSQL', adminUrl: POSTGRES_URL });
  else console.warn(`PostgreSQL at ${POSTGRES_URL} is not reachable: measured PGlite only`);
}
for (const { database, adminUrl } of databases) {
  const { rounds, cleanup } = await runDeliveryCrash({
    rounds: ROUNDS,
    messages: 2000,
    connections: CONNECTIONS,
    postgresAdminUrl: adminUrl,
    log: (line) => console.log(`${database} ${line}`),
  });
  await cleanup();
  results.push({ database, rounds });
}
await dns.stop();

const seconds = (ms: number) => (ms / 1000).toFixed(1);
console.log(
  `\nSIGKILL during delivery of 2,000 messages (small bodies), ${ROUNDS} times per database; DELIVERY_CONNECTIONS=${CONNECTIONS}\n`,
);
console.log(
  '| database   | kill | delivered at kill | connections open | duplicates | lost | ready after restart (s) | drained after restart (s) | longest pause (s) |',
);
console.log(
  '|------------|------|-------------------|------------------|------------|------|-------------------------|---------------------------|-------------------|',
);
for (const { database, rounds } of results) {
  for (const r of rounds) {
    console.log(
      `| ${database.padEnd(10)} | ${String(r.round).padStart(4)} | ${String(r.deliveredAtKill).padStart(17)} | ${String(r.connectionsAtKill).padStart(16)} | ${String(r.duplicates).padStart(10)} | ${String(r.lost).padStart(4)} | ${seconds(r.readyMs).padStart(23)} | ${seconds(r.drainMs).padStart(25)} | ${seconds(r.longestPauseMs).padStart(17)} |`,
    );
  }
}
console.log('\nA message stranded under the lease of the dead process (300 s) would show as a pause of minutes.');
process.exit(0);
