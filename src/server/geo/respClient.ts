import { createConnection, type Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';

/** A reply of the Redis protocol (RESP2): what pub/sub needs. */
export type RespValue = string | number | null | RespValue[] | Error;

/**
 * An incremental RESP2 reader: bytes arrive in arbitrary chunks, whole replies come out. Returns undefined while
 * a reply is incomplete.
 */
export class RespReader {
  private buffer: Buffer = Buffer.alloc(0);
  private offset = 0;

  push(chunk: Buffer): RespValue[] {
    this.buffer = this.offset < this.buffer.length ? Buffer.concat([this.buffer.subarray(this.offset), chunk]) : chunk;
    this.offset = 0;
    const out: RespValue[] = [];
    for (;;) {
      const start = this.offset;
      const value = this.read();
      if (value === undefined) {
        this.offset = start;
        return out;
      }
      out.push(value);
    }
  }

  private line(): string | undefined {
    const end = this.buffer.indexOf('\r\n', this.offset);
    if (end < 0) return undefined;
    const text = this.buffer.toString('utf8', this.offset, end);
    this.offset = end + 2;
    return text;
  }

  private read(): RespValue | undefined {
    if (this.offset >= this.buffer.length) return undefined;
    const type = String.fromCharCode(this.buffer[this.offset]);
    this.offset += 1;
    const head = this.line();
    if (head === undefined) return undefined;
    switch (type) {
      case '+': return head;
      case '-': return new Error(head);
      case ':': return Number(head);
      case '$': {
        const length = Number(head);
        if (length < 0) return null;
        if (this.buffer.length < this.offset + length + 2) return undefined;
        const text = this.buffer.toString('utf8', this.offset, this.offset + length);
        this.offset += length + 2;
        return text;
      }
      case '*': {
        const count = Number(head);
        if (count < 0) return null;
        const items: RespValue[] = [];
        for (let i = 0; i < count; i++) {
          const item = this.read();
          if (item === undefined) return undefined;
          items.push(item);
        }
        return items;
      }
      default: throw new Error(`unexpected RESP type ${type}`);
    }
  }
}

export function encodeCommand(args: readonly string[]): Buffer {
  const parts = [`*${args.length}\r\n`];
  for (const arg of args) parts.push(`$${Buffer.byteLength(arg)}\r\n${arg}\r\n`);
  return Buffer.from(parts.join(''));
}

/**
 * A minimal Redis connection for pub/sub (no client library is installed): reconnects with backoff, sends AUTH
 * when the URL carries a password, replays `onConnect` commands (SUBSCRIBE) after each reconnect, and hands
 * every reply to `onReply`. Commands written while disconnected are dropped: live positions are not worth
 * queueing (the next ones follow within seconds).
 */
export class RespConnection {
  private socket: Socket | undefined;
  private reader = new RespReader();
  private closed = false;
  private retryMs = 500;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: URL,
    private readonly log: FastifyBaseLogger,
    private readonly onConnect: () => string[][] = () => [],
    private readonly onReply: (value: RespValue) => void = () => undefined,
  ) {}

  connect(): void {
    if (this.closed) return;
    const socket = createConnection({ host: this.url.hostname || '127.0.0.1', port: Number(this.url.port || 6379) });
    this.socket = socket;
    this.reader = new RespReader();
    socket.setNoDelay(true);
    socket.on('connect', () => {
      this.retryMs = 500;
      const password = decodeURIComponent(this.url.password);
      if (password) socket.write(encodeCommand(this.url.username ? ['AUTH', decodeURIComponent(this.url.username), password] : ['AUTH', password]));
      for (const command of this.onConnect()) socket.write(encodeCommand(command));
    });
    socket.on('data', (chunk) => {
      try {
        for (const value of this.reader.push(chunk)) {
          if (value instanceof Error) this.log.warn({ err: value }, 'redis error reply');
          else this.onReply(value);
        }
      } catch (err) {
        this.log.warn({ err }, 'redis protocol error');
        socket.destroy();
      }
    });
    socket.on('error', (err) => this.log.warn({ err: err.message }, 'redis connection error'));
    socket.on('close', () => {
      if (this.socket === socket) this.socket = undefined;
      if (this.closed) return;
      this.retryTimer = setTimeout(() => this.connect(), this.retryMs);
      this.retryTimer.unref();
      this.retryMs = Math.min(this.retryMs * 2, 10_000);
    });
  }

  /** Writes a command when connected; false when it was dropped (disconnected or the socket is backed up). */
  send(args: readonly string[]): boolean {
    const socket = this.socket;
    if (!socket || socket.connecting || socket.destroyed || socket.writableNeedDrain) return false;
    socket.write(encodeCommand(args));
    return true;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.socket?.destroy();
  }
}
