import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  // Each suite opens its own PGlite and migrates it: under a loaded CI machine that took over 10 s,
  // and a test that opens one of its own (or a thread) took over vitest's 5 s beside the dashboard
  // build. Timeouts catch hangs here; speed is measured by `npm run bench`.
  test: { include: ['tests/**/*.test.ts'], environment: 'node', hookTimeout: 60_000, testTimeout: 60_000 },
});
