import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config-settings';

/**
 * The master key: MAILSTEAD_SECRET when set (required with PostgreSQL, where processes must share it),
 * else a random key generated once into the data directory for the embedded default.
 */
export function loadMasterKey(config: Config): Buffer {
  const existing = readMasterKey(config);
  if (existing) return existing;
  const file = path.join(config.dataDir, 'master.key');
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  return key;
}

/** The master key if there is one yet; never makes one (for `mailstead doctor`). */
export function readMasterKey(config: Config): Buffer | null {
  if (config.secretFromEnv) return Buffer.from(config.secretFromEnv, 'utf8');
  const file = path.join(config.dataDir, 'master.key');
  if (!existsSync(file)) return null;
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length < 32) throw new Error(`${file} does not hold a valid master key`);
  return key;
}
