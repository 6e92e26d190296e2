import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer, isServerBuildFresh } from '@/bin/server-build.js';

/**
 * The server's build (bin/server-build.js) on a small project of its own: a start uses it only
 * while no source is newer, so an edit is never run stale; builds at once do not break each other.
 */
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function project(greeting: string) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ms-build-'));
  roots.push(root);
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  write('tsconfig.json', JSON.stringify({ compilerOptions: { paths: { '@/*': ['./*'] } } }));
  write('lib/greeting.ts', `export const greeting: string = ${JSON.stringify(greeting)};`);
  write('lib/cli/main.ts', `import { greeting } from '@/lib/greeting';\nconsole.log(greeting);`);
  write('lib/mail/mail-thread.ts', 'export default () => 1;');
  write('lib/db/pglite-thread.ts', 'export {};');
  write('lib/core/templates/engine/render-worker.ts', 'export {};');
  write('lib/db/migrations/0000_first.sql', 'select 1;');
  return { root, write };
}

const run = (root: string) =>
  spawnSync(process.execPath, [path.join(root, '.build', 'server', 'main.mjs')], { encoding: 'utf8' }).stdout.trim();

describe('the server build', () => {
  it('is fresh once built, runs the compiled sources with their aliases, and copies the migrations', async () => {
    const { root } = project('hello');
    expect(isServerBuildFresh(root)).toBe(false);
    await buildServer(root);
    expect(isServerBuildFresh(root)).toBe(true);
    expect(run(root)).toBe('hello');
    expect(readFileSync(path.join(root, '.build/server/migrations/0000_first.sql'), 'utf8')).toBe('select 1;');
  });

  it('is stale as soon as any file under lib/ is newer, and a rebuild takes the edit', async () => {
    const { root, write } = project('before');
    await buildServer(root);
    write('lib/greeting.ts', `export const greeting = 'after';`);
    const later = new Date(Date.now() + 5_000);
    utimesSync(path.join(root, 'lib/greeting.ts'), later, later);
    expect(isServerBuildFresh(root)).toBe(false);
    await buildServer(root);
    expect(isServerBuildFresh(root)).toBe(true);
    expect(run(root)).toBe('after');
  });

  it('four builds at once all succeed and leave one whole build, fresh', async () => {
    const { root } = project('parallel');
    await Promise.all([1, 2, 3, 4].map(() => buildServer(root)));
    expect(isServerBuildFresh(root)).toBe(true);
    expect(run(root)).toBe('parallel');
  });
});
