import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The first run's setup token, for people with the data directory but not the log; gone once an account exists. */
export function setupTokenFilePath(dataDir: string): string {
  return path.join(dataDir, 'setup-token');
}

export function writeSetupTokenFile(dataDir: string, token: string): string {
  const file = setupTokenFilePath(dataDir);
  writeFileSync(file, token + '\n', { mode: 0o600 });
  return file;
}

export function removeSetupTokenFile(dataDir: string): void {
  rmSync(setupTokenFilePath(dataDir), { force: true });
}

/** The address that opens /setup with the token filled in. */
export function setupUrlOf(publicUrl: URL, token: string): string {
  const url = new URL('/setup', publicUrl);
  url.searchParams.set('token', token);
  return url.href;
}

/**
 * A person starting the server in a terminal sees where to go in plain words; under a process
 * manager (no terminal) only the JSON log line is written, for log collectors. True when printed.
 */
export function printSetupBanner(
  stream: Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean },
  setupUrl: string,
  tokenFile: string,
): boolean {
  if (!stream.isTTY) return false;
  const rule = '='.repeat(72);
  stream.write(
    [
      '',
      rule,
      '  Mailstead: no account exists yet. Open this address to set it up:',
      '',
      `    ${setupUrl}`,
      '',
      `  (the token is also in ${tokenFile})`,
      rule,
      '',
      '',
    ].join('\n'),
  );
  return true;
}
