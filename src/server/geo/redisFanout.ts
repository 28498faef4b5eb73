import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { PositionChange } from '../telemetry/pipeline';
import type { Position } from '../telemetry/types';
import { RespConnection, type RespValue } from './respClient';

const CHANNEL = 'transport-console:positions';

/** [vehicleId, time, lat, lon, speed, course, valid]: compact on the wire. */
type WirePosition = [number, number, number, number, number, number, 0 | 1];

/**
 * GEO_FANOUT=redis: several server processes behind a load balancer each receive part of the fleet (EGTS
 * connections, HTTP batches) but every browser must see all of it. Each process publishes the latest-state
 * changes of its own pipeline and applies those of the others to its in-memory latest positions (not to the
 * track: the receiving process has written that already). A message carries its origin so nobody re-applies
 * its own.
 */
export class RedisFanout {
  readonly origin = randomUUID();
  private readonly publisher: RespConnection;
  private readonly subscriber: RespConnection;
  readonly stats = { published: 0, dropped: 0, received: 0 };

  constructor(url: string, log: FastifyBaseLogger, onRemote: (positions: Position[]) => void) {
    const target = new URL(url);
    this.publisher = new RespConnection(target, log);
    this.subscriber = new RespConnection(target, log, () => [['SUBSCRIBE', CHANNEL]], (value: RespValue) => {
      if (!Array.isArray(value) || value[0] !== 'message' || typeof value[2] !== 'string') return;
      const message = parse(value[2]);
      if (!message || message.o === this.origin) return;
      this.stats.received += message.p.length;
      onRemote(message.p.map(([vehicleId, time, lat, lon, speed, course, valid]) => ({
        vehicleId, time, lat, lon, speed, course, valid: valid === 1, history: false,
      })));
    });
  }

  start(): void {
    this.publisher.connect();
    this.subscriber.connect();
  }

  publish(changes: readonly PositionChange[]): void {
    const p: WirePosition[] = changes.map((c) => [c.vehicleId, c.time, c.lat, c.lon, c.speed, c.course, c.valid ? 1 : 0]);
    if (this.publisher.send(['PUBLISH', CHANNEL, JSON.stringify({ o: this.origin, p })])) this.stats.published += p.length;
    else this.stats.dropped += p.length;
  }

  close(): void {
    this.publisher.close();
    this.subscriber.close();
  }
}

function parse(text: string): { o: string; p: WirePosition[] } | null {
  try {
    const message = JSON.parse(text) as { o?: unknown; p?: unknown };
    if (typeof message.o !== 'string' || !Array.isArray(message.p)) return null;
    const valid = message.p.filter((item): item is WirePosition => Array.isArray(item) && item.length === 7 && item.every((v) => typeof v === 'number'));
    return { o: message.o, p: valid };
  } catch {
    return null;
  }
}
