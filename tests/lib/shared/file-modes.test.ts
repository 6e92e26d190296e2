import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensurePrivateDir, restrictToOwner } from '@/lib/shared/file-modes';

const mode = (file: string) => statSync(file).mode & 0o777;

describe('restrictToOwner', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('directories become 0700 and files lose group and other bits, recursively; symlinks are left alone', () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'modes-'));
    const outside = path.join(root, 'outside.txt');
    const data = path.join(root, 'data');
    mkdirSync(path.join(data, 'pglite', 'pg_wal'), { recursive: true });
    writeFileSync(path.join(data, 'pglite', 'pg_wal', '000000010000000000000001'), 'wal');
    writeFileSync(path.join(data, 'cert.pem'), 'cert');
    writeFileSync(outside, 'not ours to change');
    symlinkSync(outside, path.join(data, 'link'));
    chmodSync(path.join(data, 'pglite', 'pg_wal', '000000010000000000000001'), 0o666);
    chmodSync(path.join(data, 'cert.pem'), 0o644);
    chmodSync(path.join(data, 'pglite', 'pg_wal'), 0o777);
    chmodSync(outside, 0o644);

    restrictToOwner(data);

    expect(mode(data)).toBe(0o700);
    expect(mode(path.join(data, 'pglite', 'pg_wal'))).toBe(0o700);
    expect(mode(path.join(data, 'pglite', 'pg_wal', '000000010000000000000001'))).toBe(0o600);
    expect(mode(path.join(data, 'cert.pem'))).toBe(0o600);
    expect(mode(outside)).toBe(0o644);
  });

  it('ensurePrivateDir creates a 0700 directory and tightens an existing one', () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'modes-'));
    const dir = path.join(root, 'a', 'b');
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
    chmodSync(dir, 0o755);
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
  });
});
