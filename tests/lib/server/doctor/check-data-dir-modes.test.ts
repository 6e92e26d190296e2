import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '@/lib/server/config';
import { checkDataDirModes } from '@/lib/server/doctor/check-data-dir-modes';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function dataDir(): string {
  root = mkdtempSync(path.join(tmpdir(), 'doctor-modes-'));
  const dir = path.join(root, 'data');
  mkdirSync(path.join(dir, 'tls'), { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  writeFileSync(path.join(dir, 'master.key'), 'key\n', { mode: 0o600 });
  writeFileSync(path.join(dir, 'tls', 'key.pem'), 'key\n', { mode: 0o600 });
  return dir;
}

describe('checkDataDirModes', () => {
  it('a data directory of its owner only is ok', () => {
    expect(checkDataDirModes(loadConfig({ DATA_DIR: dataDir() })).status).toBe('ok');
  });

  it('a world-readable master.key fails, says what it exposes and how to fix it', () => {
    const dir = dataDir();
    chmodSync(path.join(dir, 'master.key'), 0o644);
    const check = checkDataDirModes(loadConfig({ DATA_DIR: dir }));
    expect(check.status).toBe('fail');
    expect(check.message).toMatch(/master\.key is readable by other users \(mode 0644\)/);
    expect(check.fix).toBe(`chmod -R go-rwx ${dir} (the server also does it when it starts)`);
  });

  it('a group-readable directory or file inside fails, naming it', () => {
    const dir = dataDir();
    chmodSync(path.join(dir, 'tls'), 0o750);
    chmodSync(path.join(dir, 'tls', 'key.pem'), 0o640);
    const check = checkDataDirModes(loadConfig({ DATA_DIR: dir }));
    expect(check.status).toBe('fail');
    expect(check.message).toContain('tls (0750)');
    expect(check.message).toContain('tls/key.pem (0640)');
  });

  it('a data directory that does not exist yet is skipped', () => {
    root = mkdtempSync(path.join(tmpdir(), 'doctor-modes-'));
    expect(checkDataDirModes(loadConfig({ DATA_DIR: path.join(root, 'missing') })).status).toBe('skip');
  });
});
