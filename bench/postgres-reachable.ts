import net from 'node:net';

/** Whether something listens at the PostgreSQL URL's host and port (the benchmarks skip it if not). */
export function isPostgresReachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 5432) });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
