import { existsSync } from 'node:fs';
import path from 'node:path';
import { findOpenToOthers } from '@/lib/shared/file-modes';
import type { Config } from '../config-settings';
import { result, type CheckResult } from './check-result';

/** DATA_DIR holds the master key, TLS key and the embedded database: its owner's only. */
export function checkDataDirModes(config: Config): CheckResult {
  const dir = config.dataDir;
  if (!existsSync(dir))
    return result('data_dir', 'skip', `${dir} does not exist yet: the server makes it (mode 0700) on first start`);
  const open = findOpenToOthers(dir);
  if (open.length === 0) return result('data_dir', 'ok', `${dir} is its owner's only`);
  const named = open
    .slice(0, 3)
    .map((entry) => `${path.relative(dir, entry.path) || dir} (${entry.mode.toString(8).padStart(4, '0')})`);
  const masterKey = open.find((entry) => entry.path === path.join(dir, 'master.key'));
  const message = masterKey
    ? `master.key is readable by other users (mode ${masterKey.mode.toString(8).padStart(4, '0')}): anyone who reads it can decrypt every stored secret`
    : `group or other users can read ${named.join(', ')}${open.length > 3 ? ' and more' : ''}`;
  return result('data_dir', 'fail', message, `chmod -R go-rwx ${dir} (the server also does it when it starts)`);
}
