import tseslint from 'typescript-eslint';

const db = {
  group: ['@/lib/db', '@/lib/db/*'],
  message:
    'Only lib/core, lib/mail, lib/webhooks, lib/smtp, lib/workers (leases and heartbeats) and the composition root (lib/server) touch the database.',
};
const authorize = {
  group: ['@/lib/auth/authorize'],
  message: 'Only core verbs decide permissions: declare a scope on the verb instead.',
};
const dashboardShortcuts = {
  group: ['@/lib/core/**/queries', '@/lib/server/*'],
  message: 'The dashboard reads and writes through the API.',
};
const upward = {
  group: ['@/lib/api', '@/lib/api/*', '@/lib/server', '@/lib/server/*', '@/lib/cli/*', '@/app/*', '@/components/*'],
  message: 'Layers point one way: app -> lib/api -> lib/core -> lib/db.',
};

const workers = {
  group: ['@/lib/workers', '@/lib/workers/*'],
  message:
    'lib/workers runs the background over core, mail and webhooks: they signal it (lib/core/shared/work-signal.ts), never import it.',
};
/** Core is what the engines call, never the other way round: a verb that needs an engine takes a signal or a port. */
const engines = {
  group: [
    '@/lib/mail',
    '@/lib/mail/*',
    '@/lib/smtp',
    '@/lib/smtp/*',
    '@/lib/webhooks',
    '@/lib/webhooks/*',
    '@/lib/workers',
    '@/lib/workers/*',
    '@/lib/client/*',
    '@/lib/dashboard/*',
  ],
  message: 'lib/core, lib/db and lib/shared sit below the engines (mail, smtp, webhooks, workers) and the dashboard.',
};
/**
 * Next.js bundles lib/dashboard apart from the server process, so a value import of lib/server or the
 * database would load a second copy of them; the server hands its auth functions over on globalThis
 * (server-auth.ts) and only their types cross.
 */
const serverTypesOnly = {
  group: ['@/lib/server/*', '@/lib/core/**/queries'],
  allowTypeImports: true,
  message: 'lib/dashboard runs in the Next.js bundle: reach the server through dashboardAuth(), import only its types.',
};
const aboveDashboardGlue = {
  group: ['@/lib/api', '@/lib/api/*', '@/lib/cli/*', '@/app/*', '@/components/*'],
  message: 'lib/dashboard is glue below the pages: pages import it, not the other way round.',
};

const restrict = (files, patterns) => ({
  files,
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
});

/** Lint keeps the layers honest (see STYLE.md and ARCHITECTURE.md). One block per folder, no overlaps. */
export default tseslint.config(
  {
    ignores: [
      '.next/**',
      '.build/**',
      'node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'test-timings/**',
      'lib/db/migrations/**',
      'next-env.d.ts',
    ],
  },
  ...tseslint.configs.recommended,
  { rules: { '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }] } },
  // lib/client runs in the browser beside the pages, so it follows their rule.
  restrict(['app/**', 'components/**', 'lib/client/**'], [db, authorize, dashboardShortcuts]),
  restrict(['lib/dashboard/**'], [db, authorize, serverTypesOnly, aboveDashboardGlue]),
  restrict(['lib/api/**'], [db, authorize, workers]),
  restrict(['lib/auth/**'], [db, upward, workers]),
  restrict(['lib/server/**', 'lib/cli/**'], [authorize]),
  restrict(['lib/mail/**', 'lib/smtp/**', 'lib/webhooks/**'], [authorize, upward, workers]),
  restrict(['lib/workers/**'], [authorize, upward]),
  restrict(['lib/core/**', 'lib/db/**', 'lib/shared/**'], [upward, engines]),
  {
    files: ['app/**', 'components/**', 'lib/client/**'],
    ignores: ['lib/client/use-query.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@tanstack/react-query',
              importNames: ['useQuery'],
              message: 'Use @/lib/client/use-query: hydration must render what the server rendered.',
            },
          ],
        },
      ],
    },
  },
  { files: ['e2e/**', 'tests/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
