import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  // Each suite opens its own PGlite and migrates it: under a loaded CI machine that took over 10 s.
  test: { include: ['tests/**/*.test.ts'], environment: 'node', hookTimeout: 60_000 },
});
