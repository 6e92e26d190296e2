import net from 'node:net';

/**
 * Speaks SMTP by hand: sends each line after the previous reply and returns the replies, each whole
 * (every line of a multi-line reply, joined with "\n"); the greeting is dropped.
 */
export async function converse(port: number, lines: string[]): Promise<string[]> {
  const socket = net.connect(port, '127.0.0.1');
  const replies: string[] = [];
  let buffer = '';
  let waiting: ((reply: string) => void) | null = null;
  socket.on('data', (data) => {
    buffer += data.toString();
    // A reply ends with a line whose code is followed by a space.
    if (/(^|\r\n)\d{3} [^\r\n]*\r\n$/.test(buffer) && waiting) {
      const reply = buffer.split('\r\n').filter(Boolean).join('\n');
      buffer = '';
      const resolve = waiting;
      waiting = null;
      resolve(reply);
    }
  });
  const next = () => new Promise<string>((resolve) => (waiting = resolve));
  await next();
  for (const line of lines) {
    const reply = next();
    socket.write(line + '\r\n');
    replies.push(await reply);
  }
  socket.destroy();
  return replies;
}
