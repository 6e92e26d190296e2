#!/usr/bin/env node
// Entry of the `mailstead` command and of `npm start`: runs the TypeScript sources through tsx.
process.env.NODE_ENV ??= 'production';
// No Next.js usage reports from the dashboard this process serves or builds.
process.env.NEXT_TELEMETRY_DISABLED ??= '1';
const { register } = await import('tsx/esm/api');
register();
await import('../lib/cli/main.ts');
