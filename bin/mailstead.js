#!/usr/bin/env node
// Entry of the `mailstead` command and of `npm start`: runs the TypeScript sources through tsx.
process.env.NODE_ENV ??= 'production';
const { register } = await import('tsx/esm/api');
register();
await import('../lib/cli/main.ts');
