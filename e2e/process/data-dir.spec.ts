import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { startServer, tempDataDir, type ServerHandle } from '../support/server';

/**
 * The data directory holds the master key, the TLS key and the embedded database with its WAL
 * (message bodies): nothing in it may be readable by the group or others, whatever the umask.
 */

// Written by the test harness (support/server.ts), not by the server.
const HARNESS_FILES = new Set(['server.log']);

/** Entries under `root` (and root itself) that the group or others may access, with their modes. */
function openToOthers(root: string): string[] {
  const found: string[] = [];
  const walk = (entry: string) => {
    const stat = lstatSync(entry);
    if (stat.isSymbolicLink() || HARNESS_FILES.has(path.relative(root, entry))) return;
    if ((stat.mode & 0o077) !== 0)
      found.push(`${path.relative(root, entry) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(entry)) walk(path.join(entry, name));
  };
  walk(root);
  return found;
}

/** Starts the server as a user with `umask 000` would. */
async function startWithOpenUmask(dataDir?: string): Promise<ServerHandle> {
  const previous = process.umask(0o000);
  try {
    // Fresh: the database's own files must be written under this umask, not copied from the run's template.
    return await startServer({ dataDir, freshDatabase: true });
  } finally {
    process.umask(previous);
  }
}

test('under umask 000, every file the server and its database write is 0600 and every directory 0700', async () => {
  const server = await startWithOpenUmask();
  try {
    // Writes through the server: the database's WAL and data files change.
    const account = await createAccountWithKey(server.env);
    const api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
    for (let i = 0; i < 5; i++)
      expect((await api.post(api.account('/api-keys'), { label: `key ${i}`, scopes: ['domains:read'] })).status).toBe(
        201,
      );
  } finally {
    expect(await server.stop()).toBe(0);
  }
  expect(readdirSync(server.dataDir).length).toBeGreaterThan(1);
  expect(openToOthers(server.dataDir)).toEqual([]);
});

test('files and directories left open to others in an existing data directory are made private at start', async () => {
  const dataDir = tempDataDir();
  chmodSync(dataDir, 0o755);
  mkdirSync(path.join(dataDir, 'old-backups'), { mode: 0o777 });
  chmodSync(path.join(dataDir, 'old-backups'), 0o777);
  writeFileSync(path.join(dataDir, 'old-backups', 'dump.sql'), 'secrets');
  chmodSync(path.join(dataDir, 'old-backups', 'dump.sql'), 0o666);
  const server = await startWithOpenUmask(dataDir);
  try {
    expect(statSync(path.join(dataDir, 'old-backups', 'dump.sql')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dataDir, 'old-backups')).mode & 0o777).toBe(0o700);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  } finally {
    expect(await server.stop()).toBe(0);
  }
  expect(openToOthers(dataDir)).toEqual([]);
});
