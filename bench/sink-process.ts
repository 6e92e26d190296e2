/**
 * The loopback sink of the versus-postfix case in a process of its own, as a recipient's MX is on
 * another machine: in the bench's own process, its SMTP parsing (1,000+ messages of 10 KB a second)
 * shared the event loop that times acceptance, and delayed both the requests' sending and the reading
 * of their answers (the requests' timers fired up to 20-40 ms late). It reports its count over IPC.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';

export type Sink = { port: number; received: () => number; stop: () => Promise<void> };

/** Starts the sink process; `received` is its count as last reported (every 10 ms while it moves). */
export async function startSinkProcess(): Promise<Sink> {
  const child = fork(fileURLToPath(import.meta.url), ['--sink'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let count = 0;
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the sink process exited with ${code}`)));
    child.on('message', (message: { port?: number; count?: number }) => {
      if (message.port !== undefined) resolve(message.port);
      if (message.count !== undefined) count = message.count;
    });
  });
  return { port, received: () => count, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return exited;
}

/** An SMTP server that takes any message, reads it to its end, and counts it. */
export function countingSmtpServer(onMessage: () => void): SMTPServer {
  return new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        onMessage();
        callback();
      });
    },
  });
}

if (process.argv.includes('--sink')) {
  let count = 0;
  let reported = 0;
  const server = countingSmtpServer(() => count++);
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.server.address() as { port: number }).port }));
  setInterval(() => {
    if (count !== reported) process.send!({ count: (reported = count) });
  }, 10);
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
  process.on('disconnect', () => process.exit(0));
}
