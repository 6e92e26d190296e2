#!/usr/bin/env node
// Entry of the `mailstead` command and of `npm start`: runs the server's build (bin/server-build.js)
// when it is as new as the sources, and otherwise the TypeScript sources themselves through tsx.
process.env.NODE_ENV ??= 'production';
// No Next.js usage reports from the dashboard this process serves or builds.
process.env.NEXT_TELEMETRY_DISABLED ??= '1';
const { buildServer, isServerBuildFresh } = await import('./server-build.js');
const args = process.argv.slice(2);
// `start` builds what it needs (the dashboard too, in lib/cli/main.ts); `--dev` runs the sources as edited.
const isDev = args.includes('--dev');
// One walk of lib/ decides; a build made here is used at once.
let useBuild = !isDev && isServerBuildFresh();
if (!isDev && !useBuild && args[0] === 'start' && !args.includes('--no-build')) {
  try {
    await buildServer();
    useBuild = true;
  } catch (error) {
    process.stderr.write(`mailstead: the server build failed, running the sources instead: ${error}\n`);
  }
}
if (useBuild) {
  await import('../.build/server/main.mjs');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../lib/cli/main.ts');
}
