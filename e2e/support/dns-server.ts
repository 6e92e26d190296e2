import http from 'node:http';
import dns2 from 'dns2';
import { freePort } from './server';

const { Packet } = dns2 as unknown as { Packet: any };

type Zone = {
  TXT?: string[];
  CNAME?: string;
  MX?: { exchange: string; priority: number }[];
  A?: string[];
  PTR?: string[];
};
type Failure = 'servfail' | 'timeout';

/**
 * An authoritative DNS server on loopback whose records the tests set: the Mailstead server under
 * test is pointed at it with DNS_SERVERS. A small HTTP control API lets test workers (other
 * processes) change records while the server runs.
 */
export class TestDnsServer {
  private zones = new Map<string, Zone>();
  private failures = new Map<string, Failure>();
  private server: any;
  private control: http.Server | null = null;
  port = 0;
  controlUrl = '';

  async start(): Promise<void> {
    this.port = await freePort();
    this.server = (dns2 as any).createServer({
      udp: true,
      tcp: true,
      handle: (request: any, send: (response: any) => void) => this.answer(request, send),
    });
    await this.server.listen({
      udp: { port: this.port, address: '127.0.0.1' },
      tcp: { port: this.port, address: '127.0.0.1' },
    });
    this.control = http.createServer((req, res) => this.handleControl(req, res));
    await new Promise<void>((resolve) => this.control!.listen(0, '127.0.0.1', () => resolve()));
    this.controlUrl = `http://127.0.0.1:${(this.control.address() as { port: number }).port}`;
  }

  async stop(): Promise<void> {
    await this.server?.close();
    await new Promise<void>((resolve) => (this.control ? this.control.close(() => resolve()) : resolve()));
  }

  set(name: string, type: keyof Zone, values: unknown): void {
    const key = name.toLowerCase().replace(/\.$/, '');
    const zone = this.zones.get(key) ?? {};
    (zone as Record<string, unknown>)[type] = values;
    this.zones.set(key, zone);
  }

  remove(name: string, type?: keyof Zone): void {
    const key = name.toLowerCase().replace(/\.$/, '');
    if (!type) return void this.zones.delete(key);
    const zone = this.zones.get(key);
    if (zone) delete zone[type];
  }

  fail(name: string, mode: Failure | null): void {
    const key = name.toLowerCase().replace(/\.$/, '');
    if (mode) this.failures.set(key, mode);
    else this.failures.delete(key);
  }

  private answer(request: any, send: (response: any) => void) {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const name = String(question.name).toLowerCase().replace(/\.$/, '');
    const failure = this.failures.get(name);
    if (failure === 'timeout') return;
    if (failure === 'servfail') {
      response.header.rcode = Packet.RCODE.SERVFAIL;
      return send(response);
    }
    let zone = this.zones.get(name);
    if (!zone) {
      response.header.rcode = Packet.RCODE.NXDOMAIN;
      return send(response);
    }
    const base = { class: Packet.CLASS.IN, ttl: 1 };
    let owner = name;
    // A CNAME answers every type, followed by the target's records (as a recursive resolver does).
    if (zone.CNAME && question.type !== Packet.TYPE.CNAME) {
      response.answers.push({ ...base, name: owner, type: Packet.TYPE.CNAME, domain: zone.CNAME });
      owner = zone.CNAME;
      zone = this.zones.get(owner) ?? {};
    }
    if (question.type === Packet.TYPE.TXT) {
      for (const value of zone.TXT ?? [])
        response.answers.push({ ...base, name: owner, type: Packet.TYPE.TXT, data: value.match(/.{1,255}/gs) ?? [''] });
    } else if (question.type === Packet.TYPE.CNAME && zone.CNAME) {
      response.answers.push({ ...base, name, type: Packet.TYPE.CNAME, domain: zone.CNAME });
    } else if (question.type === Packet.TYPE.MX) {
      for (const mx of zone.MX ?? [])
        response.answers.push({
          ...base,
          name: owner,
          type: Packet.TYPE.MX,
          exchange: mx.exchange,
          priority: mx.priority,
        });
    } else if (question.type === Packet.TYPE.A) {
      for (const address of zone.A ?? []) response.answers.push({ ...base, name: owner, type: Packet.TYPE.A, address });
    } else if (question.type === Packet.TYPE.PTR) {
      for (const domain of zone.PTR ?? [])
        response.answers.push({ ...base, name: owner, type: Packet.TYPE.PTR, domain });
    }
    send(response);
  }

  private handleControl(req: http.IncomingMessage, res: http.ServerResponse) {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const command = body ? JSON.parse(body) : {};
      if (command.op === 'set') this.set(command.name, command.type, command.values);
      if (command.op === 'remove') this.remove(command.name, command.type);
      if (command.op === 'fail') this.fail(command.name, command.mode);
      res.writeHead(204).end();
    });
  }
}

/** A test worker's handle on the run's DNS server (see global-setup.ts). */
export class DnsControl {
  constructor(readonly url = process.env.MAILSTEAD_TEST_DNS_CONTROL ?? '') {
    if (!url) throw new Error('MAILSTEAD_TEST_DNS_CONTROL is not set: run through playwright.config.ts');
  }

  private async send(command: Record<string, unknown>) {
    const response = await fetch(this.url, { method: 'POST', body: JSON.stringify(command) });
    if (response.status !== 204) throw new Error(`DNS control failed: ${response.status}`);
  }

  setTxt = (name: string, ...values: string[]) => this.send({ op: 'set', name, type: 'TXT', values });
  setCname = (name: string, target: string) => this.send({ op: 'set', name, type: 'CNAME', values: target });
  setMx = (name: string, exchange: string, priority = 10) =>
    this.send({ op: 'set', name, type: 'MX', values: [{ exchange, priority }] });
  setA = (name: string, ...addresses: string[]) => this.send({ op: 'set', name, type: 'A', values: addresses });
  /** The reverse name of an IPv4 address (its in-addr.arpa PTR record). */
  setPtr = (ip: string, name: string) =>
    this.send({ op: 'set', name: `${ip.split('.').reverse().join('.')}.in-addr.arpa`, type: 'PTR', values: [name] });
  remove = (name: string, type?: keyof Zone) => this.send({ op: 'remove', name, type });
  fail = (name: string, mode: Failure | null) => this.send({ op: 'fail', name, mode });

  /** Publishes every record a domain asks for, exactly as shown. */
  async publish(records: { type: string; host: string; content: string; priority?: number }[]) {
    for (const record of records) {
      if (record.type === 'TXT') await this.setTxt(record.host, record.content);
      if (record.type === 'CNAME') await this.setCname(record.host, record.content);
      if (record.type === 'MX') await this.setMx(record.host, record.content, record.priority ?? 10);
    }
  }
}
