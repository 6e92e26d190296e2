import net from 'node:net';

/**
 * A TCP proxy on loopback in front of a real server (PostgreSQL): `cut()` drops every open
 * connection and stops listening, so new ones are refused as when the server restarts; `stall()`
 * drops them too but accepts new ones and never answers, as a host gone without a reset does;
 * `restore()` forwards again on the same port.
 */
export class TcpProxy {
  port = 0;
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private isStalled = false;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<this> {
    await this.listen(0);
    return this;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
  }

  async stall(): Promise<void> {
    await this.cut();
    this.isStalled = true;
    await this.listen(this.port);
  }

  async restore(): Promise<void> {
    if (this.isStalled) await this.cut();
    this.isStalled = false;
    if (!this.server) await this.listen(this.port);
  }

  async stop(): Promise<void> {
    await this.cut();
  }

  private async listen(port: number): Promise<void> {
    const server = net.createServer((client) => {
      if (this.isStalled) {
        this.sockets.add(client);
        client.once('close', () => this.sockets.delete(client));
        client.on('error', () => client.destroy());
        return;
      }
      const upstream = net.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.once('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
  }
}
