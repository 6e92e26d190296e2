import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { printSetupBanner, removeSetupTokenFile, setupUrlOf, writeSetupTokenFile } from '@/lib/server/setup-token-file';

function stream(isTTY: boolean | undefined) {
  const written: string[] = [];
  return { isTTY, written, write: (chunk: string) => written.push(chunk) > 0 };
}

describe('the first run banner', () => {
  const url = setupUrlOf(new URL('https://mail.example.com:3000/'), 'setup-abc_DEF-123');

  it('names /setup with the token filled in', () => {
    expect(url).toBe('https://mail.example.com:3000/setup?token=setup-abc_DEF-123');
  });

  it('is printed in plain words when a terminal is attached', () => {
    const terminal = stream(true);
    expect(printSetupBanner(terminal, url, '/srv/data/setup-token')).toBe(true);
    const text = terminal.written.join('');
    expect(text).toContain(`    ${url}\n`);
    expect(text).toContain('no account exists yet');
    expect(text).toContain('/srv/data/setup-token');
    expect(text).not.toContain('{');
  });

  it('is not printed without a terminal (a process manager, a log collector)', () => {
    for (const isTTY of [false, undefined]) {
      const pipe = stream(isTTY);
      expect(printSetupBanner(pipe, url, '/srv/data/setup-token')).toBe(false);
      expect(pipe.written).toEqual([]);
    }
  });
});

describe('DATA_DIR/setup-token', () => {
  it('is written for the owner only, and removing it twice is fine', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ms-token-'));
    const file = writeSetupTokenFile(dataDir, 'setup-xyz');
    expect(readFileSync(file, 'utf8')).toBe('setup-xyz\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    removeSetupTokenFile(dataDir);
    expect(existsSync(file)).toBe(false);
    removeSetupTokenFile(dataDir);
  });
});
