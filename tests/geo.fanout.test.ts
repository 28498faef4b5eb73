import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RespReader, encodeCommand } from '../src/server/geo/respClient';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether a Redis answers PING at the URL (the fan-out test needs one; CI may not run it). */
async function redisAvailable(url: string): Promise<boolean> {
  const target = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: target.hostname, port: Number(target.port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write(encodeCommand(['PING'])));
    socket.on('data', (chunk) => done(chunk.toString().startsWith('+PONG')));
  });
}

describe('RESP reader', () => {
  it('reads replies split across chunks, and pub/sub messages', () => {
    const reader = new RespReader();
    const bytes = Buffer.from('+OK\r\n:42\r\n*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$5\r\nhello\r\n-ERR nope\r\n$-1\r\n');
    const values = [...bytes].flatMap((_, i) => reader.push(bytes.subarray(i, i + 1)));
    expect(values.slice(0, 3)).toEqual(['OK', 42, ['message', 'ch', 'hello']]);
    expect(values[3]).toBeInstanceOf(Error);
    expect(values[4]).toBeNull();
    expect(encodeCommand(['PUBLISH', 'ch', 'привет']).toString()).toBe('*3\r\n$7\r\nPUBLISH\r\n$2\r\nch\r\n$12\r\nпривет\r\n');
  });
});

const available = await redisAvailable(REDIS_URL);

describe.skipIf(!available)('positions fanned out between server processes over Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    process.env.GEO_FANOUT = 'redis';
    process.env.GEO_REDIS_URL = REDIS_URL;
    try {
      a = await startTestApp(ENGINES[0]);
      b = await startTestApp(ENGINES[0]);
    } finally {
      delete process.env.GEO_FANOUT;
      delete process.env.GEO_REDIS_URL;
    }
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('applies another process\'s positions to the latest state, never its own twice', async () => {
    const time = Date.now() - 1000;
    // Both subscribers need a moment to connect.
    for (let i = 0; i < 50 && !(b.app.geo.fanout!.stats.received > 0); i++) {
      a.app.telemetry.pipeline.ingest([{ vehicleId: 5, time: time + i, lat: 59.93, lon: 30.31, speed: 12, course: 90, valid: true, history: false }]);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(b.app.telemetry.latest.get(5)).toMatchObject({ lat: 59.93, lon: 30.31, speed: 12, course: 90 });
    expect(a.app.geo.fanout!.stats.published).toBeGreaterThan(0);
    expect(a.app.geo.fanout!.stats.received).toBe(0);
  });
});
