import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

/**
 * The README and docs/ promise commands, variables and pages; these checks fail when one of them
 * does not exist, so the documentation cannot drift from the code unnoticed.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

const DOCS = readdirSync(path.join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
const PAGES = ['README.md', ...DOCS];

/** Text outside fenced code blocks, and the fenced blocks' contents, apart. */
function split(markdown: string): { prose: string; code: string } {
  const prose: string[] = [];
  const code: string[] = [];
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) inFence = !inFence;
    else (inFence ? code : prose).push(line);
  }
  return { prose: prose.join('\n'), code: code.join('\n') };
}

/** Inline code spans of the prose, and every line of fenced code. */
function codeSnippets(markdown: string): string[] {
  const { prose, code } = split(markdown);
  return [...[...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]), ...code.split('\n')];
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsOf(file: string): Set<string> {
  const headings = split(read(file)).prose.split('\n').filter((line) => /^#{1,6}\s/.test(line));
  return new Set(headings.map((line) => slug(line.replace(/^#+\s/, ''))));
}

function linksOf(file: string): string[] {
  const { prose } = split(read(file));
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]);
}

/** Every variable the server reads: the keys of envSchema in lib/server/config.ts. */
function schemaVariables(): string[] {
  const source = read('lib/server/config.ts');
  const start = source.indexOf('const envSchema = z.object({');
  const end = source.indexOf('\n});', start);
  expect(start, 'envSchema not found in lib/server/config.ts').toBeGreaterThan(-1);
  return [...source.slice(start, end).matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]);
}

const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

/** Names that look like environment variables in code spans: `NAME`, `NAME=value`, `${NAME:-x}`. */
function variablesIn(markdown: string): string[] {
  const found = new Set<string>();
  for (const snippet of codeSnippets(markdown)) {
    const whole = snippet.trim();
    if (ENV_NAME.test(whole)) found.add(whole);
    for (const match of snippet.matchAll(/(?:^|\s)(?:export\s+)?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=/g)) found.add(match[1]);
    for (const match of snippet.matchAll(/\$\{?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)/g)) found.add(match[1]);
  }
  return [...found];
}

/** Source the tooling reads variables in (tests, benchmarks, the test runner). */
function toolingSource(): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(ROOT, dir))) {
      const file = `${dir}/${name}`;
      if (statSync(path.join(ROOT, file)).isDirectory()) walk(file);
      else if (/\.(ts|js|tsx)$/.test(name)) files.push(file);
    }
  };
  for (const dir of ['bench', 'scripts', 'e2e', 'lib', 'bin']) walk(dir);
  return [...files, 'playwright.config.ts'].map(read).join('\n');
}

/** The CLI's commands as its help lists them: `accounts create`, `start`, ... */
function cliCommands(): string[] {
  const source = read('lib/cli/main.ts');
  const usage = /const USAGE = `([\s\S]*?)`;/.exec(source);
  expect(usage, 'USAGE not found in lib/cli/main.ts').not.toBeNull();
  return usage![1]
    .split('\n')
    .map((line) => /^ {2}([a-z][a-z0-9-]*(?: [a-z][a-z0-9-]*)?)/.exec(line)?.[1])
    .filter((command): command is string => Boolean(command));
}

function benchCases(): string[] {
  const cases = /const CASES = \[([^\]]*)\]/.exec(read('bench/main.ts'));
  expect(cases, 'CASES not found in bench/main.ts').not.toBeNull();
  return [...cases![1].matchAll(/'([^']+)'/g)].map((match) => match[1]);
}

describe('links', () => {
  test.each(PAGES)('%s: every relative link and anchor resolves', (file) => {
    const broken: string[] = [];
    for (const link of linksOf(file)) {
      if (/^[a-z]+:/i.test(link)) continue;
      const [target, anchor] = link.split('#');
      const resolved = target === '' ? file : path.normalize(path.join(path.dirname(file), target));
      if (!existsSync(path.join(ROOT, resolved))) broken.push(`${link} (no file ${resolved})`);
      else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${link} (no heading #${anchor} in ${resolved})`);
    }
    expect(broken).toEqual([]);
  });

  test('every page of docs/ is reachable from the README', () => {
    const seen = new Set<string>(['README.md']);
    const queue = ['README.md'];
    while (queue.length > 0) {
      const file = queue.shift()!;
      for (const link of linksOf(file)) {
        const target = link.split('#')[0];
        if (/^[a-z]+:/i.test(link) || !target.endsWith('.md')) continue;
        const resolved = path.normalize(path.join(path.dirname(file), target));
        if (!seen.has(resolved) && existsSync(path.join(ROOT, resolved))) {
          seen.add(resolved);
          queue.push(resolved);
        }
      }
    }
    expect(DOCS.filter((file) => !seen.has(file))).toEqual([]);
  });
});

describe('environment variables', () => {
  const schema = schemaVariables();

  test('the config schema is found and holds the variables everyone sets', () => {
    expect(schema).toEqual(expect.arrayContaining(['PORT', 'DATA_DIR', 'DATABASE_URL', 'MAILSTEAD_SECRET', 'READY_TIMEOUT_MS']));
  });

  test.each(['README.md', 'docs/configuration.md'])('%s names only variables of the config schema', (file) => {
    expect(variablesIn(read(file)).filter((name) => !schema.includes(name))).toEqual([]);
  });

  test('docs/configuration.md documents every variable of the config schema', () => {
    // One-word names (PORT, ROLES) count here, where the name is looked up, not guessed.
    const markdown = read('docs/configuration.md');
    const documented = [...variablesIn(markdown), ...codeSnippets(markdown).map((snippet) => snippet.trim()).filter((snippet) => /^[A-Z][A-Z0-9_]*$/.test(snippet))];
    expect(schema.filter((name) => !documented.includes(name))).toEqual([]);
  });

  test('the other pages name only variables that the server or its tooling reads', () => {
    const tooling = toolingSource();
    const unknown = DOCS.flatMap((file) =>
      variablesIn(read(file))
        .filter((name) => !schema.includes(name) && !new RegExp(`\\b${name}\\b`).test(tooling))
        .map((name) => `${file}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});

describe('commands', () => {
  const commands = cliCommands();
  const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
  const cases = benchCases();

  test('the CLI help and the bench cases are found', () => {
    expect(commands).toEqual(expect.arrayContaining(['start', 'migrate', 'accounts create']));
    expect(cases).toContain('versus-postfix');
  });

  test.each(PAGES)('%s: every `npx mailstead`, `npm run` and bench case named exists', (file) => {
    const missing: string[] = [];
    for (const snippet of codeSnippets(read(file))) {
      for (const match of snippet.matchAll(/(?:npx mailstead|bin\/mailstead\.js)\s+([a-z][a-z0-9-]*)(?:\s+([a-z][a-z0-9-]*))?/g)) {
        const [, command, sub] = match;
        const hasSubcommands = commands.some((known) => known.startsWith(`${command} `));
        const wanted = hasSubcommands ? `${command} ${sub ?? ''}`.trim() : command;
        if (!commands.includes(wanted)) missing.push(`mailstead ${wanted}`);
      }
      for (const match of snippet.matchAll(/npm (?:run\s+([a-z][a-z0-9:-]*)|(start|test))/g)) {
        const script = match[1] ?? match[2];
        if (!scripts.includes(script)) missing.push(`npm run ${script}`);
      }
      for (const match of snippet.matchAll(/npm run bench --((?:\s+[a-z][a-z0-9-]*)+)/g)) {
        for (const name of match[1].trim().split(/\s+/)) if (!cases.includes(name)) missing.push(`bench case ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
