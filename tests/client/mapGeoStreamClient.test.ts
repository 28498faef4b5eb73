import { describe, expect, it, vi } from 'vitest';
import { GeoStreamClient, type GeoStreamStatus } from '../../src/web/map/geoStreamClient';
import type { GeoDelta, MapCluster } from '../../src/shared/map';

const encoder = new TextEncoder();

/** A streaming response whose body the test writes to, event by event. */
function sseResponse(status = 200) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
  });
  return {
    response: new Response(status === 200 ? body : null, { status }),
    send: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('geo stream client', () => {
  it('opens with the subscription, PUTs changes to its stream id, reconnects when the stream ends', async () => {
    const streams = [sseResponse(), sseResponse()];
    const urls: string[] = [];
    const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      urls.push(String(url));
      expect((init?.headers as Record<string, string>).authorization).toBe('Bearer t');
      return streams[urls.length - 1].response;
    });
    const put = vi.fn(async () => ({}));
    const points: number[] = [];
    const statuses: GeoStreamStatus[] = [];
    const client = new GeoStreamClient({
      fetch: fetch as unknown as typeof globalThis.fetch,
      put,
      headers: () => ({ authorization: 'Bearer t' }),
      onPoints: (_, items) => points.push(items.length),
      onStatus: (status) => statuses.push(status),
      backoffMs: [10],
      debounceMs: 5,
    });
    client.start('1,2,3,4;11;');
    await until(() => urls.length === 1);
    expect(urls[0]).toBe(`/geoapi/v1/geo/1?q=${encodeURIComponent('1,2,3,4;11;')}`);
    streams[0].send('event: hello\ndata: {"streamId":"abc"}\n\n: ping\n\nevent: po');
    streams[0].send('ints\ndata: {"time":"t","items":[]}\n\n');
    await until(() => points.length === 1);

    client.update('1,2,3,4;12;5');
    await until(() => put.mock.calls.length === 1);
    expect(put).toHaveBeenCalledWith('/geoapi/v1/geo/1/abc', { q: '1,2,3,4;12;5' });

    streams[0].end();
    await until(() => urls.length === 2);
    expect(urls[1]).toContain(encodeURIComponent('1,2,3,4;12;5'));
    expect(statuses).toContain('retrying');
    client.stop();
    expect(statuses.at(-1)).toBe('stopped');
  });

  it('applies deltas to the picture it holds and hands over the whole picture; reconnects on a delta that does not follow', async () => {
    const streams = [sseResponse(), sseResponse()];
    let opened = 0;
    const pictures: MapCluster[][] = [];
    const client = new GeoStreamClient({
      fetch: (async () => streams[opened++].response) as unknown as typeof fetch,
      put: async () => ({}),
      headers: () => ({}),
      onPoints: (_, items) => pictures.push(items),
      backoffMs: [10],
    });
    const bus = (id: number, lat: number): MapCluster => ({
      type: 'vehicle',
      id,
      count: 1,
      routeType: 'А',
      route: '5',
      classRank: 1,
      course: 0,
      on: true,
      date: '2024-05-01T10:00:00.000Z',
      depotNumber: 100 + id,
      averageSpeed: 10,
      center: [lat, 30],
    });
    const at = Date.parse('2024-05-01T10:00:02Z');
    const delta = (d: Omit<GeoDelta, 'time' | 'at'>) =>
      `event: delta\ndata: ${JSON.stringify({ time: new Date(at).toISOString(), at, ...d })}\n\n`;
    client.start('q');
    await until(() => opened === 1);
    streams[0].send('event: hello\ndata: {"streamId":"s"}\n\n');
    streams[0].send(`event: points\ndata: ${JSON.stringify({ time: 't', v: 1, items: [bus(1, 59.9), bus(2, 59.8)] })}\n\n`);
    streams[0].send(
      delta({ v: 2, base: 1, vehicles: [[1, 59.91, 30, 45, 12, 1, 1000]], groups: [[3301, 3, 59.7, 30.1, 20, 1, 500]], gone: ['v2'] }),
    );
    await until(() => pictures.length === 2);
    expect(pictures[1]).toEqual([
      { ...bus(1, 59.91), course: 45, averageSpeed: 12, date: '2024-05-01T10:00:01.000Z' },
      {
        type: 'group',
        id: 3301,
        count: 3,
        routeType: null,
        route: null,
        classRank: null,
        course: 0,
        on: true,
        date: '2024-05-01T10:00:01.500Z',
        depotNumber: null,
        averageSpeed: 20,
        center: [59.7, 30.1],
      },
    ]);
    // a delta against a picture the client does not hold: the stream is dropped and opened again
    streams[0].send(delta({ v: 9, base: 8, vehicles: [], groups: [], gone: ['v1'] }));
    await until(() => opened === 2);
    expect(pictures).toHaveLength(2);
    client.stop();
  });

  it('reports the session end on 401 and stops', async () => {
    const onUnauthorized = vi.fn();
    const client = new GeoStreamClient({
      fetch: (async () => sseResponse(401).response) as unknown as typeof fetch,
      put: async () => ({}),
      headers: () => ({}),
      onPoints: () => undefined,
      onUnauthorized,
    });
    client.start('q');
    await until(() => onUnauthorized.mock.calls.length === 1);
  });
});

describe('early geo stream (opened with the login, taken over by the map)', () => {
  it('keeps the picture it received until the map takes the stream over, then hands over what follows', async () => {
    const stream = sseResponse();
    const urls: string[] = [];
    vi.stubGlobal('window', { location: { pathname: '/m/map' } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string | URL | Request) => {
        urls.push(String(url));
        return stream.response;
      }),
    );
    try {
      const { adoptEarlyGeoStream, openEarlyGeoStream } = await import('../../src/web/map/useGeoStream');
      openEarlyGeoStream('1,2,3,4;16;');
      await until(() => urls.length === 1);
      expect(urls[0]).toBe(`/geoapi/v1/geo/1?q=${encodeURIComponent('1,2,3,4;16;')}`);
      stream.send('event: hello\ndata: {"streamId":"early"}\n\nevent: points\ndata: {"time":"t1","items":[]}\n\n');
      await new Promise((r) => setTimeout(r, 20));

      const points: string[] = [];
      const statuses: GeoStreamStatus[] = [];
      const client = adoptEarlyGeoStream({ onPoints: (time) => points.push(time), onStatus: (status) => statuses.push(status) });
      expect(client).not.toBeNull();
      expect(points).toEqual(['t1']); // handed over at once
      expect(statuses).toEqual(['open']);
      expect(adoptEarlyGeoStream({ onPoints: () => undefined, onStatus: () => undefined })).toBeNull(); // taken once
      stream.send('event: points\ndata: {"time":"t2","items":[]}\n\n');
      await until(() => points.length === 2);
      expect(urls).toHaveLength(1); // the same connection
      client!.stop();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
