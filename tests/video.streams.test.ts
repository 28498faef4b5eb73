import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';
import { startHlsServer, type HlsServer } from './helpers/hlsServer';
import { READ } from '../src/shared/permissions';

/** Live video: the field app's two calls (field-app.md section 7), the demo source, the media-server proxy. */
describe.each(ENGINES)('video streams on %s', (engine) => {
  let t: TestApp;
  let viewer: string;
  let other: string;
  let admin: string;
  let hls: HlsServer;
  let vehicleId: number;
  let dvrId: number;

  beforeAll(async () => {
    t = await startTestApp(engine);
    await createUserWith(t.db, 'watcher', { '/video/online': READ });
    await createUserWith(t.db, 'watcher2', { '/video/online': READ });
    await createUserWith(t.db, 'nobody', { '/map/currentData': READ });
    viewer = await t.login('watcher', TEST_PASSWORD);
    other = await t.login('watcher2', TEST_PASSWORD);
    admin = await t.login('admin', 'admin123');
    hls = await startHlsServer('ms-user', 'ms-Secret1');
    const [row] = await t.db.query<{ vehicle_id: number; id: number }>(
      `select d.vehicle_id, d.id from mgt.dvr d where exists (select 1 from mgt.dev_camera c where c.dvr_id = d.id and c.index = 1)
        and d.media_server_ip is null order by d.id limit 1`,
    );
    vehicleId = row.vehicle_id;
    dvrId = row.id;
  });
  afterAll(async () => {
    await hls.close();
    await t.close();
  });

  const inject = (method: 'GET' | 'POST', url: string, authorization?: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: authorization ? { authorization } : {} });
  /** A playlist's address lines, resolved against the playlist's own address. */
  const addresses = (playlist: string, base: string) =>
    playlist
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => {
        const url = new URL(l, `http://local${base}`);
        return url.pathname + url.search;
      });
  const startLive = async (vehicle: number, authorization = viewer) => {
    const response = await inject('POST', '/api/v1/video/empty', authorization, { vehicleId: vehicle });
    expect(response.statusCode).toBe(200);
    return response.json() as number;
  };

  it('answers a request id, then {url, playUrl} of a camera whose playlist slides over demo segments', async () => {
    const requestId = await startLive(vehicleId);
    expect(Number.isInteger(requestId)).toBe(true);
    const response = await inject('GET', `/api/v1/video/online/${requestId}/1`, viewer);
    expect(response.statusCode).toBe(200);
    const { url, playUrl } = response.json();
    expect(url).toBe(`demo://dvr/${dvrId}/camera/1`);
    expect(playUrl).toMatch(/^\/api\/v1\/video\/stream\/[\w.-]+\/index\.m3u8$/);

    // The stream itself needs no session: the browser's video element cannot send one.
    const before = Math.floor(Date.now() / 2000);
    const playlist = await inject('GET', playUrl);
    expect(playlist.statusCode).toBe(200);
    expect(playlist.headers['content-type']).toContain('mpegurl');
    const sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist.body)![1]);
    expect(sequence).toBeGreaterThanOrEqual(before - 4);
    expect(sequence).toBeLessThanOrEqual(Math.floor(Date.now() / 2000) - 4);
    const segments = addresses(playlist.body, playUrl);
    expect(segments).toHaveLength(4);
    expect(playlist.body).toContain('#EXT-X-PROGRAM-DATE-TIME:');
    const segment = await inject('GET', segments[0]);
    expect(segment.statusCode).toBe(200);
    expect(segment.headers['content-type']).toBe('video/mp2t');
    expect(segment.rawPayload[0]).toBe(0x47);
    expect(segment.rawPayload.length).toBeGreaterThan(10_000);
    // The field app's retry adds a time stamp: the same playlist answers.
    expect((await inject('GET', `${playUrl}?t=${Date.now()}`)).statusCode).toBe(200);
  });

  it('journals a live view in the video journal', async () => {
    await startLive(vehicleId);
    const [row] = await t.db.query<{ kind: string; vehicle_id: number }>(
      "select kind, vehicle_id from app.video_event where kind = 'live' order by id desc limit 1",
    );
    expect(row).toEqual({ kind: 'live', vehicle_id: vehicleId });
  });

  it('refuses a vehicle without a recorder, and one whose recorder has no cameras, with dvr_or_camera_not_found', async () => {
    const [bare] = await t.db.query<{ id: number }>(
      'select v.id from mgt.vehicles v where not exists (select 1 from mgt.dvr d where d.vehicle_id = v.id) order by v.id limit 1',
    );
    const response = await inject('POST', '/api/v1/video/empty', viewer, { vehicleId: bare.id });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ messages: ['dvr_or_camera_not_found'] });
    expect((await inject('POST', '/api/v1/video/empty', viewer, { vehicleId: 2_000_000_000 })).json()).toEqual({
      messages: ['dvr_or_camera_not_found'],
    });

    const [camera] = await t.db.query<{ vehicle_id: number; dvr_id: number }>(
      'select d.vehicle_id, d.id as dvr_id from mgt.dvr d where d.id <> $1 and exists (select 1 from mgt.dev_camera c where c.dvr_id = d.id) order by d.id desc limit 1',
      [dvrId],
    );
    await t.db.query('delete from mgt.dev_camera where dvr_id = $1', [camera.dvr_id]);
    expect((await inject('POST', '/api/v1/video/empty', viewer, { vehicleId: camera.vehicle_id })).json()).toEqual({
      messages: ['dvr_or_camera_not_found'],
    });
    // A camera the recorder does not have.
    const requestId = await startLive(vehicleId);
    expect((await inject('GET', `/api/v1/video/online/${requestId}/99`, viewer)).json()).toEqual({ messages: ['dvr_or_camera_not_found'] });
  });

  it("keeps a request id to its user, the stream to its signed token, and live video to code 25's holders", async () => {
    const requestId = await startLive(vehicleId);
    expect((await inject('GET', `/api/v1/video/online/${requestId}/1`, other)).statusCode).toBe(404);
    const { playUrl } = (await inject('GET', `/api/v1/video/online/${requestId}/1`, viewer)).json();
    const token = playUrl.split('/')[5];
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await inject('GET', playUrl.replace(token, tampered))).statusCode).toBe(404);
    const nobody = await t.login('nobody', TEST_PASSWORD);
    expect((await inject('POST', '/api/v1/video/empty', nobody, { vehicleId })).statusCode).toBe(403);
    expect((await inject('POST', '/api/v1/video/empty', undefined, { vehicleId })).statusCode).toBe(401);
    expect((await inject('POST', '/api/v1/video/empty', viewer, { vehicleId: '5' })).statusCode).toBe(400);
  });

  it('reaches a recorder with its four media-server fields set through its media server, credentials kept on the server', async () => {
    const [row] = await t.db.query<{ vehicle_id: number; id: number }>(
      `select d.vehicle_id, d.id from mgt.dvr d where d.id <> $1 and exists (select 1 from mgt.dev_camera c where c.dvr_id = d.id and c.index = 1) order by d.id limit 1`,
      [dvrId],
    );
    await t.db.query(
      `update mgt.dvr set serial_number = 'MS-77', media_server_ip = '127.0.0.1', media_server_port = $2, media_server_login = 'ms-user',
              media_server_password = 'ms-Secret1', is_media_server_use = true where id = $1`,
      [row.id, hls.port],
    );
    const requestId = await startLive(row.vehicle_id);
    const { url, playUrl } = (await inject('GET', `/api/v1/video/online/${requestId}/1`, viewer)).json();
    expect(url).toBe(`http://127.0.0.1:${hls.port}/live/MS-77/1/index.m3u8`);
    expect(JSON.stringify({ url, playUrl })).not.toContain('ms-Secret1');

    const playlist = await inject('GET', playUrl);
    expect(playlist.statusCode).toBe(200);
    expect(playlist.body).not.toContain('127.0.0.1');
    expect(playlist.body).not.toContain('elsewhere.example');
    const segments = addresses(playlist.body, playUrl);
    // Two of the three: the address off the media server's origin is dropped.
    expect(segments).toHaveLength(2);
    const first = await inject('GET', segments[0]);
    expect(first.statusCode).toBe(200);
    expect(first.rawPayload.equals(hls.segment(10))).toBe(true);
    expect((await inject('GET', segments[1])).rawPayload.equals(hls.segment(11))).toBe(true);
    expect(hls.seen.at(-1)).toEqual({
      path: '/live/MS-77/1/chunk-11.ts',
      authorization: `Basic ${Buffer.from('ms-user:ms-Secret1').toString('base64')}`,
    });

    // A proxied address is good only as the server signed it.
    const forged = segments[0].replace(
      /u=[^&]+/,
      `u=${Buffer.from(`http://127.0.0.1:${hls.port}/live/MS-77/1/index.m3u8`).toString('base64url')}`,
    );
    expect((await inject('GET', forged)).statusCode).toBe(404);

    // The URL scheme is the administrator's (/system/video), and a refused login reaches the player as an error.
    const put = await inject('PUT' as 'POST', '/api/v1/settings/video', admin, {
      video: { mediaServerUrl: 'http://{ip}:{port}/live/{serial}/{camera}/index.m3u8?user={login}&pass={password}' },
    });
    expect(put.statusCode).toBe(200);
    const shown = (await inject('GET', `/api/v1/video/online/${requestId}/1`, viewer)).json();
    expect(shown.url).toBe(`http://127.0.0.1:${hls.port}/live/MS-77/1/index.m3u8?user=***&pass=***`);
    await t.db.query("update mgt.dvr set media_server_password = 'wrong1' where id = $1", [row.id]);
    expect((await inject('GET', shown.playUrl)).statusCode).toBe(502);
  });
});
