// The server's build: lib/ compiled once into .build/server/ (one file per entry, packages left
// external), so that a start loads plain JavaScript instead of compiling every TypeScript file
// through tsx's loader thread. Measured on a 2-core host: 9-10 s of CPU and 7.5 s to the first answer
// per start through tsx, against about half with the build (docs/testing.md, fifth round). The test
// run starts about 150 servers; a user's restarts and cluster workers start faster too.
//
// The build is an optimisation only: bin/mailstead.js runs the sources through tsx whenever the build
// is missing or older than any file under lib/, so an edit is never run stale.
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Two levels below the root, as lib/server/ is: PROJECT_ROOT (lib/server/dashboard.ts) resolves the same from both. */
const buildDir = (root) => path.join(root, '.build', 'server');
const STAMP = 'sources-mtime';

/**
 * Each entry keeps the name its source-mode stub has, so that `new URL('./mail-thread.mjs',
 * import.meta.url)` finds the thread's build beside the main file, as it finds the stub beside the source.
 */
const ENTRIES = {
  main: 'lib/cli/main.ts',
  'mail-thread': 'lib/mail/mail-thread.ts',
  'pglite-thread': 'lib/db/pglite-thread.ts',
  'render-worker': 'lib/core/templates/engine/render-worker.ts',
};

/** What the build is made from: every file under lib/, this file and the compiler settings. */
function newestSourceMtime(root) {
  let newest = Math.max(statSync(import.meta.filename).mtimeMs, statSync(path.join(root, 'tsconfig.json')).mtimeMs);
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  walk(path.join(root, 'lib'));
  return newest;
}

/** Whether the build exists and was made from the sources as they are now. */
export function isServerBuildFresh(root = ROOT) {
  const stamp = path.join(buildDir(root), STAMP);
  if (!existsSync(stamp) || !existsSync(path.join(buildDir(root), 'main.mjs'))) return false;
  return newestSourceMtime(root) <= Number(readFileSync(stamp, 'utf8'));
}

/**
 * Builds into a directory of its own and swaps it in, so that a server starting meanwhile sees the
 * old build or the new one, never half of one; two builds at once both succeed (the later swap wins).
 */
export async function buildServer(root = ROOT) {
  const { build } = await import('esbuild');
  // Read before compiling: a file saved during the build leaves the build stale, not falsely fresh.
  const sourcesMtime = newestSourceMtime(root);
  const target = buildDir(root);
  const staging = `${target}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}`;
  await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(root, file)])),
    outdir: staging,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Packages load from node_modules as they do under tsx; only our own code is compiled.
    packages: 'external',
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'error',
  });
  // MIGRATIONS_FOLDER (lib/db/client.ts) is beside the file that names it.
  cpSync(path.join(root, 'lib', 'db', 'migrations'), path.join(staging, 'migrations'), { recursive: true });
  writeFileSync(path.join(staging, STAMP), String(sourcesMtime));
  mkdirSync(path.dirname(target), { recursive: true });
  const old = `${staging}.old`;
  try {
    if (existsSync(target)) renameSync(target, old);
  } catch {
    // Another build moved it first.
  }
  try {
    renameSync(staging, target);
  } catch {
    // Another build put its own in place: it is as good as ours.
    rmSync(staging, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
}

if (process.argv[1] === import.meta.filename) {
  await buildServer();
  console.log(`server build written to ${path.relative(ROOT, buildDir(ROOT))}/`);
}
