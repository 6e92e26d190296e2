import tseslint from 'typescript-eslint';

const db = { group: ['@/lib/db', '@/lib/db/*'], message: 'Only lib/core, lib/mail, lib/webhooks, lib/smtp and the composition root (lib/server) touch the database.' };
const authorize = { group: ['@/lib/auth/authorize'], message: 'Only core verbs decide permissions: declare a scope on the verb instead.' };
const dashboardShortcuts = { group: ['@/lib/core/**/queries', '@/lib/server/*'], message: 'The dashboard reads and writes through the API.' };
const upward = {
  group: ['@/lib/api', '@/lib/api/*', '@/lib/server', '@/lib/server/*', '@/lib/cli/*', '@/app/*', '@/components/*'],
  message: 'Layers point one way: app -> lib/api -> lib/core -> lib/db.',
};

const restrict = (files, patterns) => ({ files, rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] } });

/** Lint keeps the layers honest (see STYLE.md and ARCHITECTURE.md). One block per folder, no overlaps. */
export default tseslint.config(
  { ignores: ['.next/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'lib/db/migrations/**', 'next-env.d.ts'] },
  ...tseslint.configs.recommended,
  { rules: { '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }] } },
  restrict(['app/**', 'components/**'], [db, authorize, dashboardShortcuts]),
  restrict(['lib/api/**'], [db, authorize]),
  restrict(['lib/auth/**'], [db, upward]),
  restrict(['lib/server/**', 'lib/cli/**'], [authorize]),
  restrict(['lib/mail/**', 'lib/smtp/**', 'lib/webhooks/**'], [authorize, upward]),
  restrict(['lib/core/**', 'lib/db/**', 'lib/shared/**'], [upward]),
  { files: ['e2e/**', 'tests/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
