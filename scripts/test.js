#!/usr/bin/env node
// `npm test`: every suite. Format check, typecheck, lint and the dashboard build beside the unit tests, then the
// end-to-end suites against a real server on the embedded database (PGlite), then again, all but
// the browser pages, on PostgreSQL (+ Redis) when one is reachable.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const isCi = Boolean(process.env.CI);
const postgresUrl = process.env.MAILSTEAD_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.MAILSTEAD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const extraArgs = process.argv.slice(2);

function step(name, command, args, env = {}) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(
    `=== ${name}: ${result.status === 0 ? 'ok' : `FAILED (${result.status ?? result.signal})`} in ${Math.round((Date.now() - started) / 1000)}s ===`,
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** A step run beside another: its output is held and printed when it ends, so that the two do not interleave. Resolves with its exit status. */
function stepAside(name, command, args, env = {}) {
  console.log(`\n=== ${name}: started ===`);
  const started = Date.now();
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.once('error', (error) => output.push(Buffer.from(`${error}\n`)));
    child.once('close', (status, signal) => {
      console.log(`\n=== ${name} ===`);
      process.stdout.write(Buffer.concat(output));
      console.log(
        `=== ${name}: ${status === 0 ? 'ok' : `FAILED (${status ?? signal})`} in ${Math.round((Date.now() - started) / 1000)}s ===`,
      );
      resolve(status ?? 1);
    });
  });
}

const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function reachable(url, defaultPort) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || defaultPort) });
    socket.setTimeout(2000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

const chromiumCandidates = () =>
  [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter(
    Boolean,
  );

/**
 * The Debian packages the suites need, each with what it is for and the file that shows it is there.
 * A new one (a spam filter for the spam tests) is a row here, so that one line announces them all.
 */
const SYSTEM_PACKAGES = [
  {
    name: 'chromium',
    neededBy: 'the browser tests',
    isPresent: () => chromiumCandidates().some((file) => existsSync(file)),
    howToSkip: 'set CHROMIUM_PATH to a Chromium binary',
  },
  {
    name: 'spamassassin',
    neededBy: "the preflight's spam score tests (spamd)",
    isPresent: () => ['/usr/sbin/spamd', '/usr/bin/spamd'].some((file) => existsSync(file)),
    howToSkip: 'leave out e2e/api/preflight.spec.ts and tests/lib/core/preflight',
  },
];

/** Installs the missing packages with apt-get where we may (root), after saying so in one line; otherwise names the command to run. */
function ensureSystemPackages() {
  const missing = SYSTEM_PACKAGES.filter((pkg) => !pkg.isPresent());
  if (missing.length === 0) return;
  const names = missing.map((pkg) => pkg.name);
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    console.log(
      `\nnpm test: installing ${names.join(' and ')} with apt-get (Debian packages ${missing.map((pkg) => pkg.neededBy).join(' and ')} need)`,
    );
    spawnSync(
      'sh',
      ['-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${names.join(' ')}`],
      { stdio: 'inherit' },
    );
  }
  const stillMissing = missing.filter((pkg) => !pkg.isPresent());
  if (stillMissing.length === 0) return;
  const needs = stillMissing.map((pkg) => `${pkg.name} (for ${pkg.neededBy}; or ${pkg.howToSkip})`).join('\n    ');
  console.error(
    `\nThese Debian packages are needed and were not found:\n    ${needs}\nInstall them with:\n\n    sudo apt-get install -y ${stillMissing.map((pkg) => pkg.name).join(' ')}\n`,
  );
  process.exit(1);
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Rebuild the dashboard only when its sources are newer than the build. */
function dashboardBuildIsStale() {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  const sources = ['app', 'components', 'lib', 'public'].map((dir) => path.join(root, dir)).filter(existsSync);
  return sources.some((dir) => newestMtime(dir) > built) || statSync(path.join(root, 'next.config.js')).mtimeMs > built;
}

ensureSystemPackages();
const chromium = chromiumCandidates().find((file) => existsSync(file));
// Vitest runs one worker on two cores and typecheck and lint are single-threaded: side by side with
// the build they take about the unit tests' time instead of the sum. The end-to-end runs need the
// whole machine, so they stay one after the other.
const isBuildStale = dashboardBuildIsStale();
const statuses = await Promise.all([
  (async () =>
    (await stepAside('format', bin('prettier'), ['--check', '.', '--log-level=warn'])) ||
    (await stepAside('typecheck', bin('tsc'), ['--noEmit', '-p', '.'])) ||
    (await stepAside('lint', bin('eslint'), ['.', '--max-warnings=0'])) ||
    (isBuildStale ? await stepAside('dashboard build', bin('next'), ['build'], { NODE_ENV: 'production' }) : 0))(),
  stepAside('unit tests', bin('vitest'), ['run']),
]);
const failure = statuses.find((status) => status !== 0);
if (failure !== undefined) process.exit(failure);
step('end-to-end on PGlite', bin('playwright'), ['test', ...extraArgs], {
  CHROMIUM_PATH: chromium,
  MAILSTEAD_TEST_POSTGRES_URL: '',
  MAILSTEAD_TEST_REDIS_URL: '',
});

if (await reachable(postgresUrl, 5432)) {
  // The browser pages ran above; here the API, SMTP, CLI and process suites run again on
  // PostgreSQL. The pages call that same API, and running them twice took CI past 45 minutes.
  const env = {
    CHROMIUM_PATH: chromium,
    MAILSTEAD_TEST_POSTGRES_URL: postgresUrl,
    MAILSTEAD_TEST_REDIS_URL: (await reachable(redisUrl, 6379)) ? redisUrl : '',
    MAILSTEAD_E2E_DASHBOARD: 'off',
  };
  step(
    `end-to-end on PostgreSQL${env.MAILSTEAD_TEST_REDIS_URL ? ' and Redis' : ''} (without the browser pages)`,
    bin('playwright'),
    ['test', ...extraArgs],
    env,
  );
} else if (isCi) {
  console.error(`\nPostgreSQL is not reachable at ${postgresUrl}; CI must run the suite on it.`);
  process.exit(1);
} else {
  console.warn(
    `\n!!! PostgreSQL is not reachable at ${postgresUrl}: the PostgreSQL run was SKIPPED (set MAILSTEAD_TEST_POSTGRES_URL) !!!`,
  );
}
console.log('\nall tests passed');
