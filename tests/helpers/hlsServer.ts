import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small local HLS server standing in for a recorder's media server in the tests: a live playlist per camera
 * and a recorded one per period, behind HTTP Basic authorisation. The recorder's serial number picks a
 * behaviour: 'NODATA…' has no archive (404), 'BROKEN…' fails its archive's third segment (500).
 */
export interface HlsServer {
  port: number;
  /** Every request received: path and its Authorization header. */
  seen: { path: string; authorization?: string }[];
  segment(n: number): Buffer;
  close(): Promise<void>;
}

export async function startHlsServer(login: string, password: string): Promise<HlsServer> {
  const expected = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
  const seen: HlsServer['seen'] = [];
  // MPEG-TS packets: sync byte 0x47 every 188 bytes, the segment number in the payload.
  const segment = (n: number) =>
    Buffer.concat(
      Array.from({ length: 4 }, (_, i) => Buffer.concat([Buffer.from([0x47, 0x40, 0x00, 0x10 + i]), Buffer.alloc(184, n % 256)])),
    );
  const answer = (request: IncomingMessage): { status: number; type?: string; body?: string | Buffer } => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.headers.authorization !== expected) return { status: 401 };
    const live = /^\/live\/([^/]+)\/(\d+)\/index\.m3u8$/.exec(url.pathname);
    if (live) {
      return {
        status: 200,
        type: 'application/vnd.apple.mpegurl',
        body: [
          '#EXTM3U',
          '#EXT-X-VERSION:3',
          '#EXT-X-TARGETDURATION:2',
          '#EXT-X-MEDIA-SEQUENCE:10',
          '#EXTINF:2.000,',
          'chunk-10.ts',
          '#EXTINF:2.000,',
          `/live/${live[1]}/${live[2]}/chunk-11.ts`,
          '#EXTINF:2.000,',
          'http://elsewhere.example/chunk-12.ts',
          '',
        ].join('\n'),
      };
    }
    const archive = /^\/archive\/([^/]+)\/(\d+)\/index\.m3u8$/.exec(url.pathname);
    if (archive) {
      if (archive[1].startsWith('NODATA')) return { status: 404 };
      const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', '#EXT-X-PLAYLIST-TYPE:VOD'];
      for (let n = 0; n < 6; n++) lines.push('#EXTINF:2.000,', `rec-${n}.ts`);
      return { status: 200, type: 'application/vnd.apple.mpegurl', body: [...lines, '#EXT-X-ENDLIST', ''].join('\n') };
    }
    const chunk = /\/(?:chunk|rec)-(\d+)\.ts$/.exec(url.pathname);
    if (chunk) {
      if (url.pathname.includes('/BROKEN') && chunk[1] === '2') return { status: 500 };
      return { status: 200, type: 'video/mp2t', body: segment(Number(chunk[1])) };
    }
    return { status: 404 };
  };
  const server: Server = createServer((request, response) => {
    seen.push({ path: request.url ?? '', authorization: request.headers.authorization });
    const { status, type, body } = answer(request);
    response.writeHead(status, type ? { 'content-type': type } : {});
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    segment,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
