import { describe, expect, it, vi } from 'vitest';
import { GeoStreamClient, type GeoStreamStatus } from '../../src/client/map/geoStreamClient';

const encoder = new TextEncoder();

/** A streaming response whose body the test writes to, event by event. */
function sseResponse(status = 200) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => { controller = c; } });
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
