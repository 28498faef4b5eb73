/**
 * What the sink needs of a response: an HTTP/1.1 one, or an HTTP/2 stream's (served over TLS, which has no
 * `destroyed`). Both say when to wait through write() and 'drain'.
 */
interface EventResponse {
  write(chunk: string | Buffer): boolean;
  end(): void;
  on(event: 'drain' | 'close', listener: () => void): unknown;
  readonly destroyed?: boolean;
}

/**
 * One server-sent event connection with backpressure: while the client has not drained the previous frame,
 * a new frame replaces the waiting one instead of queueing behind it (the latest picture wins), so a slow
 * client costs one frame of memory, never an unbounded queue.
 */
export class SseSink {
  private pending: string | Buffer | null = null;
  private closed = false;
  /** The last write was buffered beyond the high-water mark (write() said so): wait for 'drain'. */
  private needDrain = false;
  /** Frames written and frames replaced before they could be written (for stats). */
  sent = 0;
  skipped = 0;

  constructor(private readonly raw: EventResponse) {
    raw.on('drain', () => {
      this.needDrain = false;
      this.flushPending();
    });
    raw.on('close', () => {
      this.closed = true;
      this.pending = null;
    });
  }

  /** A frame waits for the client to drain the previous one: the next frame sent will replace it. */
  get waiting(): boolean {
    return this.pending !== null;
  }

  get isClosed(): boolean {
    return this.closed || this.raw.destroyed === true;
  }

  /**
   * Sends one whole event frame (see sseFrame); returns false when it had to wait, replacing an older
   * waiting frame. Frames shared by many streams come as one Buffer, encoded once for all of them.
   */
  send(frame: string | Buffer): boolean {
    if (this.isClosed) return false;
    if (this.needDrain) {
      if (this.pending !== null) this.skipped += 1;
      this.pending = frame;
      return false;
    }
    this.write(frame);
    return true;
  }

  /** A comment line: keeps proxies and the client's idle timers from closing a quiet stream. */
  heartbeat(): void {
    if (!this.needDrain && !this.isClosed) this.needDrain = !this.raw.write(': ping\n\n');
  }

  close(): void {
    if (this.isClosed) return;
    this.closed = true;
    this.raw.end();
  }

  private flushPending(): void {
    const frame = this.pending;
    this.pending = null;
    if (frame !== null && !this.isClosed) this.write(frame);
  }

  private write(frame: string | Buffer): void {
    this.needDrain = !this.raw.write(frame);
    this.sent += 1;
  }
}

/** One server-sent event: its name and a one-line data payload (JSON never holds a raw line break). */
export function sseFrame(name: string, data: string): string {
  return `event: ${name}\ndata: ${data}\n\n`;
}
