import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { ProxyHeaderReader } from './proxyProtocol';
import { EgtsSession, type SessionContext, type SessionOutput } from './session';

export interface EgtsServerOptions {
  maxConnections: number;
  idleTimeoutMs: number;
  maxPendingWriteBytes: number;
  /**
   * Every connection starts with a PROXY protocol header (v1 or v2) naming the terminal's address: the listener
   * is behind a TCP load balancer (HAProxy's `send-proxy-v2`). A connection without a valid one is closed.
   */
  proxyProtocol?: boolean;
  /** How long a connection may take to send its PROXY header (5 s when not given). */
  proxyHeaderTimeoutMs?: number;
}

/** A connection's end as the logs and the vehicle-event journal name it. */
const endpoint = (address: string | undefined, port: number | undefined) => `${address ?? '?'}:${port ?? '?'}`;

export interface EgtsServerStats {
  connections: number;
  accepted: number;
  packets: number;
  positions: number;
  refused: number;
}

/**
 * The TCP listener terminals connect to. Each connection gets an EgtsSession; its answers are written as
 * they are produced. A terminal that stops reading is paused (no more input is decoded until its socket
 * drains) and dropped when too much is queued for it; a silent one is dropped after the idle timeout.
 */
export class EgtsServer {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private totals = { accepted: 0, packets: 0, positions: 0, refused: 0 };

  constructor(
    private readonly ctx: Omit<SessionContext, 'log'>,
    private readonly options: EgtsServerOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.server = createServer({ noDelay: true }, (socket) => this.onConnection(socket));
    this.server.maxConnections = options.maxConnections;
    this.server.on('drop', (data) => this.log.warn({ remote: data?.remoteAddress }, 'EGTS connection refused: connection limit reached'));
    this.server.on('error', (err) => this.log.error({ err }, 'EGTS listener error'));
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.server.once('error', onError);
      this.server.listen({ port, host, backlog: 4096 }, () => {
        this.server.off('error', onError);
        const address = this.server.address() as AddressInfo;
        this.log.info({ port: address.port }, 'EGTS listener started');
        resolve(address.port);
      });
    });
  }

  get port(): number | undefined {
    const address = this.server.address();
    return address && typeof address === 'object' ? address.port : undefined;
  }

  stats(): EgtsServerStats {
    return { connections: this.sockets.size, ...this.totals };
  }

  private onConnection(socket: Socket): void {
    const peer = endpoint(socket.remoteAddress, socket.remotePort);
    if (!this.options.proxyProtocol) return this.serve(socket, peer, this.log.child({ remote: peer }));
    // Behind the load balancer every connection comes from it: the terminal's address is in the PROXY header.
    this.sockets.add(socket);
    this.totals.accepted += 1;
    const reader = new ProxyHeaderReader();
    const timer = setTimeout(() => {
      this.log.warn({ via: peer }, 'EGTS connection sent no PROXY header in time: closed');
      socket.destroy();
    }, this.options.proxyHeaderTimeoutMs ?? 5000);
    const onData = (chunk: Buffer) => {
      const header = reader.push(chunk);
      if (header.kind === 'more') return;
      clearTimeout(timer);
      socket.off('data', onData);
      if (header.kind === 'invalid') {
        this.log.warn({ via: peer, reason: header.reason }, 'EGTS connection without a valid PROXY header: closed');
        socket.destroy();
        return;
      }
      // LOCAL (the balancer's health check) and UNKNOWN keep the connection's own address.
      const remote = header.source ? endpoint(header.source.address, header.source.port) : peer;
      this.serve(socket, remote, this.log.child({ remote, via: peer }), header.rest);
    };
    socket.on('data', onData);
    socket.on('error', (err) => this.log.debug({ err, via: peer }, 'EGTS socket error'));
    socket.once('close', () => {
      clearTimeout(timer);
      this.sockets.delete(socket);
    });
  }

  /** The EGTS conversation of a connection from `remote`; `first` is what it sent already (after a PROXY header). */
  private serve(socket: Socket, remote: string, log: FastifyBaseLogger, first?: Buffer): void {
    const session = new EgtsSession({ ...this.ctx, log, write: (packet) => !socket.destroyed && (socket.write(packet), true) }, remote);
    if (!this.options.proxyProtocol) {
      this.sockets.add(socket);
      this.totals.accepted += 1;
      socket.on('error', (err) => log.debug({ err }, 'EGTS socket error'));
    }
    socket.setTimeout(this.options.idleTimeoutMs);
    socket.setKeepAlive(true, 60_000);
    socket.on('timeout', () => {
      log.debug('EGTS connection idle: closed');
      socket.destroy();
    });
    const send = (output: SessionOutput) => {
      let writable = true;
      for (const reply of output.replies) writable = socket.write(reply);
      if (output.close) {
        socket.end();
        return;
      }
      if (!writable) {
        if (socket.writableLength > this.options.maxPendingWriteBytes) {
          log.warn({ pending: socket.writableLength }, 'EGTS terminal does not read its answers: connection closed');
          socket.destroy();
          return;
        }
        socket.pause();
        socket.once('drain', () => socket.resume());
      }
    };
    // Answers confirming positions wait for them to be durable; later answers queue behind, in order.
    let waiting = 0;
    let queue: Promise<void> = Promise.resolve();
    const onData = (chunk: Buffer) => {
      const before = { ...session.counters };
      let output: SessionOutput;
      try {
        output = session.receive(chunk);
      } catch (err) {
        log.error({ err }, 'EGTS session failed: connection closed');
        socket.destroy();
        return;
      }
      this.totals.packets += session.counters.packets - before.packets;
      this.totals.positions += session.counters.positions - before.positions;
      this.totals.refused += session.counters.refused - before.refused;
      if (!output.durable && waiting === 0) return send(output);
      waiting += 1;
      queue = queue.then(async () => {
        const durable = output.durable ? await output.durable : true;
        waiting -= 1;
        if (socket.destroyed) return;
        if (!durable) {
          log.warn('EGTS positions not stored: connection closed unconfirmed, the terminal will resend');
          socket.destroy();
          return;
        }
        send(output);
      });
    };
    socket.on('data', onData);
    socket.on('close', () => {
      this.sockets.delete(socket);
      session.end();
    });
    if (first?.length) onData(first);
  }

  /** Stops accepting and closes every open connection. */
  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
