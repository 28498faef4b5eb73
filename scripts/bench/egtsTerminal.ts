// A simulated EGTS terminal for the benchmarks (egtsIngest.ts, clusterEgts.ts): one TCP connection, TERM_IDENTITY,
// then POS_DATA packets; the time from writing a packet to reading its RESPONSE is its acknowledgement latency.
import { connect, type Socket } from 'node:net';
import { SRT } from '../../src/server/telemetry/egts/constants';
import { FrameReader } from '../../src/server/telemetry/egts/frameReader';
import { decodeRecords } from '../../src/server/telemetry/egts/records';
import { authPacket, positionsPacket } from '../../src/server/telemetry/egts/terminalPackets';

export interface TerminalListener {
  /** A packet answered: its latency, whether it was refused (a processing code other than OK), its fix time. */
  acked(latencyMs: number, refused: boolean, fixTime: number): void;
  /** A connection that was open is gone (the server or the proxy closed it). */
  closed?(): void;
}

export class BenchTerminal {
  socket: Socket | null = null;
  private reader = new FrameReader(65_553);
  private pid = 0;
  private rn = 0;
  /** Packets sent, for a fix time that advances with them. */
  fixes = 0;
  private readonly sentAt = new Map<number, { at: number; time: number }>();
  authenticated = false;
  private onAuth: (() => void) | null = null;

  constructor(
    /** TERM_IDENTITY's terminal id: the vehicle's peer address. */
    readonly tid: number,
    readonly index: number,
    private readonly listener: TerminalListener,
  ) {}

  open(port: number, host = '127.0.0.1'): Promise<void> {
    this.reader = new FrameReader(65_553);
    this.authenticated = false;
    return new Promise((resolve, reject) => {
      let connected = false;
      const socket = connect({ port, host, noDelay: true }, () => {
        connected = true;
        resolve();
      });
      this.socket = socket;
      socket.once('error', reject);
      socket.on('data', (chunk: Buffer) => {
        if (this.socket === socket) this.onData(chunk);
      });
      socket.once('close', () => {
        if (this.socket !== socket) return;
        this.socket = null;
        this.onAuth?.();
        this.onAuth = null;
        // a connection refused is the opener's to retry, not a connection lost
        if (connected) this.listener.closed?.();
      });
    });
  }

  /** Resolves true once the platform accepted the identity (false: refused, or the connection closed). */
  authenticate(): Promise<boolean> {
    return new Promise((resolve) => {
      this.onAuth = () => resolve(this.authenticated);
      this.socket?.write(authPacket(this.nextPid(), this.nextRn(), { tid: this.tid }));
    });
  }

  /** One POS_DATA packet with a fix at `time` (whole seconds: EGTS carries seconds); none before authentication. */
  sendFix(time: number): void {
    if (!this.socket || !this.authenticated) return;
    const pid = this.nextPid();
    this.fixes += 1;
    // A bus moving along a small circle (about 200 m) around its depot, the depots on a grid of 100 × 100 over
    // the city (about 390 m apart): plausible coordinates, speed and course, and vehicles apart on the map.
    const angle = ((time / 1000 + this.index) % 360) * (Math.PI / 180);
    const packet = positionsPacket(pid, [
      {
        rn: this.nextRn(),
        fixes: [
          {
            time,
            lat: 59.75 + (this.index % 100) * 0.0035 + 0.002 * Math.sin(angle),
            lon: 29.95 + (Math.floor(this.index / 100) % 100) * 0.007 + 0.004 * Math.cos(angle),
            speed: 30,
            course: Math.floor(((angle * 180) / Math.PI + 90) % 360),
            valid: true,
          },
        ],
      },
    ]);
    this.sentAt.set(pid, { at: performance.now(), time });
    this.socket.write(packet);
  }

  /** Fix times sent and not answered; forgotten (a terminal sends them again on its next connection). */
  takeUnanswered(): number[] {
    const times = [...this.sentAt.values()].map((sent) => sent.time);
    this.sentAt.clear();
    return times;
  }

  get outstanding(): number {
    return this.sentAt.size;
  }

  destroy(): void {
    const socket = this.socket;
    this.socket = null;
    socket?.destroy();
  }

  private onData(chunk: Buffer): void {
    const now = performance.now();
    for (const event of this.reader.push(chunk)) {
      if (event.kind !== 'frame') continue;
      if (event.header.pt === 1) {
        // RESULT_CODE of the authentication
        this.authenticated = event.body[event.body.length - 1] === 0;
        this.onAuth?.();
        this.onAuth = null;
        continue;
      }
      const rpid = event.body.readUInt16LE(0);
      // Refused: the packet (PR) or its record (RECORD_RESPONSE's status: a position before authentication).
      let pr = event.body[2];
      for (const record of decodeRecords(event.body, 3))
        for (const sub of record.subrecords) if (sub.type === SRT.RECORD_RESPONSE && sub.data[2] !== 0) pr = sub.data[2];
      const sent = this.sentAt.get(rpid);
      if (sent === undefined) continue;
      this.sentAt.delete(rpid);
      this.listener.acked(now - sent.at, pr !== 0, sent.time);
    }
  }

  private nextPid(): number {
    const pid = this.pid;
    this.pid = (this.pid + 1) & 0xffff;
    return pid;
  }

  private nextRn(): number {
    const rn = this.rn;
    this.rn = (this.rn + 1) & 0xffff;
    return rn;
  }
}
