import { defineConfig, type Project } from '@playwright/test';

/**
 * End-to-end suites against a real server started in global setup. Projects are the surfaces:
 * api (HTTP), smtp (mail leaving and arriving), cli and process (the operator's side), dashboard (Debian's Chromium),
 * and quiet (timing-sensitive checks, alone after the others).
 * MAILSTEAD_TEST_POSTGRES_URL switches the run from PGlite to a fresh PostgreSQL database.
 * MAILSTEAD_E2E_DASHBOARD=off leaves the browser pages out: `npm test` runs them once, on PGlite
 * (they drive the same API that the other projects test on both databases), to keep CI within time.
 */
const hasDashboard = process.env.MAILSTEAD_E2E_DASHBOARD !== 'off';

/**
 * Specs whose behaviour does not depend on which database answers: connection timeouts, request ids
 * and their log lines, how the two listeners read a path, the data directory's file modes (PGlite
 * writes more files there than PostgreSQL), request validation (bad input is refused before any
 * query; an unknown id is the same lookup on both), the template renderer's limits, DNS check
 * timing, and the MX's protocol limits (preflight runs on both: its audience and sender checks read
the database). PGlite is
 * PostgreSQL's own engine: the same SQL answers the same. They run on PGlite; the PostgreSQL run
 * leaves them out (docs/testing.md: CI time).
 */
const isPostgresRun = Boolean(process.env.MAILSTEAD_TEST_POSTGRES_URL);
const DATABASE_INDEPENDENT = [
  '**/process/connections.spec.ts',
  '**/process/data-dir.spec.ts',
  '**/api/request-id.spec.ts',
  '**/api/plain-http-edge.spec.ts',
  '**/api/bad-input.spec.ts',
  '**/api/hostile-templates.spec.ts',
  '**/api/domain-dns-timing.spec.ts',
  '**/smtp/mx-limits.spec.ts',
];

export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/support/global-setup.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  // Also the budget of each beforeAll, where many specs start a server of their own: on a loaded
  // 2-core CI machine one start took over a minute.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  // The JSON file keeps every test's duration per database, for measuring where CI time goes (docs/testing.md).
  reporter: [
    ['list'],
    ['html', { open: 'never', outputFolder: 'playwright-report' }],
    ['json', { outputFile: `test-timings/${isPostgresRun ? 'postgres' : 'pglite'}.json` }],
  ],
  outputDir: 'test-results',
  testIgnore: isPostgresRun ? DATABASE_INDEPENDENT : [],
  projects: [
    { name: 'api', testDir: './e2e/api' },
    { name: 'cli', testDir: './e2e/cli' },
    { name: 'process', testDir: './e2e/process' },
    { name: 'smtp', testDir: './e2e/smtp' },
    ...(hasDashboard ? [dashboardProject()] : []),
    // Timing-sensitive checks, run after every other project and so alone on the machine.
    {
      name: 'quiet',
      testDir: './e2e/quiet',
      dependencies: ['api', 'cli', 'process', 'smtp', ...(hasDashboard ? ['dashboard'] : [])],
    },
  ],
});

function dashboardProject(): Project {
  return {
    name: 'dashboard',
    testDir: './e2e/dashboard',
    use: {
      browserName: 'chromium',
      ignoreHTTPSErrors: true,
      screenshot: 'only-on-failure',
      trace: 'retain-on-failure',
      launchOptions: {
        // Playwright's own browser download does not work here: Debian's Chromium, headless.
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      },
    },
  };
}
