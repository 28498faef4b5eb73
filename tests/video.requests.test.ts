import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';
import { startHlsServer, type HlsServer } from './helpers/hlsServer';
import { CREATE, DELETE, READ, UPDATE } from '../src/shared/permissions';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { demoCoverage, demoStoppedAt, piecesSeconds } from '../src/server/video/demoArchive';

// A quick worker: ticks of 100 ms, connecting in 200 ms, 20 s of recording downloaded per second.
process.env.VIDEO_WORKER_TICK_MS = '100';
process.env.VIDEO_CONNECT_MS = '200';
process.env.VIDEO_DOWNLOAD_RATE = '20';

const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Archive requests as jobs: every status of console.md section 3, rights, restart, notifications, the journal. */
describe.each(ENGINES)('video archive requests on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let owner: string;
  let ownerId: number;
  let archivist: string;
  let looker: string;
  let hls: HlsServer;
  /** Demo recorders free of gaps and stops over the last hour, on vehicles without positions (offline). */
  let vehicles: { vehicleId: number; dvrId: number }[];

  beforeAll(async () => {
    t = await startTestApp(engine);
    app = t.app;
    const video = {
      '/video/requests': CREATE | READ | UPDATE,
      '/video/online': READ,
      '/video/archive': READ,
      '/video/myrequests': READ | DELETE,
    };
    ownerId = await createUserWith(t.db, 'olga', video);
    await createUserWith(t.db, 'archivist', { ...video, '/video/archive': READ | DELETE, '/video/myrequests': READ });
    await createUserWith(t.db, 'looker', { '/video/requests': CREATE | READ | UPDATE, '/video/myrequests': READ, '/video/archive': READ });
    owner = await t.login('olga', TEST_PASSWORD);
    archivist = await t.login('archivist', TEST_PASSWORD);
    looker = await t.login('looker', TEST_PASSWORD);
    hls = await startHlsServer('ms-user', 'ms-Secret1');
    const now = Date.now();
    const rows = await t.db.query<{ vehicle_id: number; id: number }>(
      `select d.vehicle_id, d.id from mgt.dvr d where exists (select 1 from mgt.dev_camera c where c.dvr_id = d.id and c.index = 1)
         and (select count(*) from mgt.dvr x where x.vehicle_id = d.vehicle_id) = 1 order by d.id`,
    );
    vehicles = rows
      .filter((r) => demoStoppedAt(r.id, now) === null && piecesSeconds(demoCoverage(r.id, 1, now - 60 * MIN, now, now, 72)) >= 3598)
      .filter((r) => !app.video.online(r.vehicle_id))
      .map((r) => ({ vehicleId: r.vehicle_id, dvrId: r.id }));
    expect(vehicles.length).toBeGreaterThan(8);
  });
  afterAll(async () => {
    await hls.close();
    await app.close();
    await t.close();
  });

  let next = 0;
  const vehicle = () => vehicles[next++];
  const online = (vehicleId: number) =>
    app.telemetry.pipeline.ingest([
      { vehicleId, time: Date.now(), lat: 59.95, lon: 30.31, speed: 20, course: 90, valid: true, history: false },
    ]);
  const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, authorization: string, payload?: object) =>
    app.inject({ method, url, payload, headers: { authorization } });
  const create = async (vehicleId: number, minutes = 2, authorization = owner, cameras = [1]) => {
    const now = Date.now();
    return inject('POST', '/api/v1/video/requests', authorization, {
      vehicleId,
      cameras,
      from: iso(now - (minutes + 1) * MIN),
      to: iso(now - MIN),
    });
  };
  const created = async (vehicleId: number, minutes = 2, authorization = owner) => {
    const response = await create(vehicleId, minutes, authorization);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as number;
  };
  const row = async (id: number) =>
    (
      await t.db.query<{ status: number; reason: string | null; progress: number; size_bytes: string | null; viewed_at: Date | null }>(
        'select status, reason, progress, size_bytes, viewed_at from app.video_request where id = $1',
        [id],
      )
    )[0];
  /** Polls until the request's status is one of `statuses`; every status seen on the way is kept. */
  const until = async (id: number, statuses: number[], seconds = 20) => {
    const seen: number[] = [];
    for (const end = Date.now() + seconds * 1000; Date.now() < end;) {
      const current = await row(id);
      if (seen.at(-1) !== current.status) seen.push(current.status);
      if (statuses.includes(current.status)) return { ...current, seen };
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    throw new Error(`request ${id} stayed in ${JSON.stringify(seen)}, not ${statuses}`);
  };
  const journal = async (id: number) =>
    t.db.query<{ kind: string; message: string; details: { status?: number } | null }>(
      'select kind, message, details from app.video_event where request_id = $1 order by id',
      [id],
    );
  const myList = async (authorization = owner, query = '') =>
    (await inject('GET', `/api/v1/reports/video/myrequests${query}`, authorization)).json();

  it('waits while the vehicle is offline, then connects, downloads with a percentage and is performed when it returns', async () => {
    const { vehicleId } = vehicle();
    const id = await created(vehicleId, 3);
    const waiting = await until(id, [3]);
    expect(waiting.reason).toMatch(/не на связи/);
    // Still waiting a while later: nothing moves an offline vehicle's request on.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await row(id)).status).toBe(3);

    online(vehicleId);
    const downloading = await until(id, [4]);
    expect(downloading.seen).toContain(5);
    let percent = 0;
    for (let i = 0; i < 100 && percent === 0; i++) {
      percent = (await row(id)).progress;
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(percent).toBeGreaterThan(0);
    expect(percent).toBeLessThan(100);
    const listed = (await myList()).list.find((r: { id: number }) => r.id === id);
    expect(listed).toMatchObject({ status: '4' });
    expect(listed.progress).toBeGreaterThan(0);

    const performed = await until(id, [6]);
    expect(performed.progress).toBe(100);
    expect(Number(performed.size_bytes)).toBeGreaterThan(100_000);
    expect((await journal(id)).map((e) => e.details?.status ?? e.kind)).toEqual(['request', 2, 3, 2, 5, 4, 6]);

    // «Видео готово» rings the owner's bell, linking to the request.
    const bell = (await inject('GET', '/api/v1/events/ring/list', owner)).json();
    expect(bell.list[0]).toMatchObject({
      type: 'video_ready',
      title: `Видео по запросу № ${id} готово`,
      link: `/video/myrequests?request=${id}`,
    });
  });

  it('plays a performed request as a recorded playlist, marks it viewed on the first playback, and downloads it', async () => {
    const { vehicleId } = vehicle();
    online(vehicleId);
    const id = await created(vehicleId, 2);
    await until(id, [6]);
    expect((await myList()).list.find((r: { id: number }) => r.id === id).status).toBe('6');

    const play = await inject('GET', `/api/v1/video/requests/${id}/play/1`, owner);
    expect(play.statusCode).toBe(200);
    const { playUrl, timeline } = play.json();
    expect(timeline).toHaveLength(1);
    expect(timeline[0].duration).toBeGreaterThanOrEqual(118);
    expect(timeline[0].duration).toBeLessThanOrEqual(120);
    const playlist = (await app.inject({ method: 'GET', url: playUrl })).body;
    expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(playlist).toContain('#EXT-X-ENDLIST');
    expect(playlist).toContain(`#EXT-X-PROGRAM-DATE-TIME:${timeline[0].start}`);
    expect(playlist.split('\n').filter((l) => l.startsWith('seg/'))).toHaveLength(timeline[0].duration / 2);

    expect((await row(id)).viewed_at).not.toBeNull();
    expect((await myList()).list.find((r: { id: number }) => r.id === id).status).toBe('7');
    await inject('GET', `/api/v1/video/requests/${id}/play/1`, owner);
    expect((await journal(id)).filter((e) => e.kind === 'viewed')).toHaveLength(1);

    const file = await inject('GET', `/api/v1/video/requests/${id}/download/1`, owner);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="video-${id}-camera-1.ts"`);
    expect(file.rawPayload.length).toBe(Number((await row(id)).size_bytes));
    expect(file.rawPayload[0]).toBe(0x47);
  });

  it('ends in the authentication or configuration error when the recorder settings are wrong, each with its reason', async () => {
    const auth = vehicle();
    await t.db.query('update mgt.dvr set password = null where id = $1', [auth.dvrId]);
    online(auth.vehicleId);
    const a = await until(await created(auth.vehicleId), [10, 11, 12, 13, 14, 6]);
    expect(a).toMatchObject({ status: 10, reason: expect.stringMatching(/логин или пароль/) });

    const config = vehicle();
    await t.db.query('update mgt.dvr set ip = null where id = $1', [config.dvrId]);
    online(config.vehicleId);
    const c = await until(await created(config.vehicleId), [10, 11, 12, 13, 14, 6]);
    expect(c).toMatchObject({ status: 11, reason: expect.stringMatching(/IP-адрес/) });
    expect((await journal(await created(config.vehicleId))).map((e) => e.kind)).toEqual(['request']);
  });

  it('refuses at once a period the demo recorder does not hold, and a vehicle without a recorder', async () => {
    const { vehicleId } = vehicles[0];
    const now = Date.now();
    const old = await inject('POST', '/api/v1/video/requests', owner, {
      vehicleId,
      cameras: [1],
      from: iso(now - 80 * 60 * MIN),
      to: iso(now - 80 * 60 * MIN + 5 * MIN),
    });
    expect(old.statusCode).toBe(400);
    expect(old.json()).toEqual({ messages: ['video_no_data'] });
    const [bare] = await t.db.query<{ id: number }>(
      'select v.id from mgt.vehicles v where not exists (select 1 from mgt.dvr d where d.vehicle_id = v.id) order by v.id limit 1',
    );
    const none = await create(bare.id);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ messages: ['dvr_or_camera_not_found'] });
    expect(
      (
        await inject('POST', '/api/v1/video/requests', owner, {
          vehicleId,
          cameras: [1],
          from: iso(now - 100 * MIN),
          to: iso(now - 20 * MIN),
        })
      ).json(),
    ).toEqual({ messages: ['video_period_too_long'] });
    expect((await create(vehicleId, 2, owner, [42])).json()).toEqual({ messages: ['video_camera_not_found'] });
    expect(
      (await inject('POST', '/api/v1/video/requests', owner, { vehicleId, cameras: [1], from: 'yesterday', to: iso(now) })).statusCode,
    ).toBe(400);
  });

  it('downloads through a media server: no data, download error and a performed recording played from the fetched segments', async () => {
    const setMedia = async (dvrId: number, serial: string) =>
      t.db.query(
        `update mgt.dvr set serial_number = $2, media_server_ip = '127.0.0.1', media_server_port = $3, media_server_login = 'ms-user',
              media_server_password = 'ms-Secret1', is_media_server_use = true where id = $1`,
        [dvrId, serial, hls.port],
      );
    const empty = vehicle();
    await setMedia(empty.dvrId, 'NODATA-1');
    online(empty.vehicleId);
    expect(await until(await created(empty.vehicleId), [6, 10, 11, 12, 13, 14])).toMatchObject({
      status: 12,
      reason: expect.stringMatching(/не хранит/),
    });

    const broken = vehicle();
    await setMedia(broken.dvrId, 'BROKEN-1');
    online(broken.vehicleId);
    const b = await until(await created(broken.vehicleId), [6, 10, 11, 12, 13, 14]);
    expect(b).toMatchObject({ status: 13, reason: expect.stringMatching(/500/) });
    expect(b.seen).toContain(4);

    const good = vehicle();
    await setMedia(good.dvrId, 'GOOD-1');
    online(good.vehicleId);
    const id = await created(good.vehicleId);
    expect(await until(id, [6, 10, 11, 12, 13, 14])).toMatchObject({ status: 6, progress: 100 });
    expect(hls.seen.some((s) => s.path.startsWith('/archive/GOOD-1/1/index.m3u8?from='))).toBe(true);
    const { playUrl } = (await inject('GET', `/api/v1/video/requests/${id}/play/1`, owner)).json();
    const playlist = (await app.inject({ method: 'GET', url: playUrl })).body;
    const segments = playlist.split('\n').filter((l) => l.startsWith('stored/'));
    expect(segments).toHaveLength(6);
    const third = await app.inject({ method: 'GET', url: playUrl.replace('index.m3u8', segments[2]) });
    expect(third.rawPayload.equals(hls.segment(2))).toBe(true);

    await t.db.query("update mgt.dvr set media_server_password = 'wrong1' where id = $1", [good.dvrId]);
    expect(await until(await created(good.vehicleId), [6, 10, 11, 12, 13, 14])).toMatchObject({ status: 10 });
  });

  it('cancels a request under way (error 14 with its reason), retries it and sees it performed', async () => {
    const { vehicleId } = vehicle();
    const id = await created(vehicleId);
    await until(id, [3]);
    const cancel = await inject('POST', `/api/v1/video/requests/${id}/cancel`, owner);
    expect(cancel.statusCode).toBe(200);
    expect(await row(id)).toMatchObject({ status: 14, reason: 'Отменён пользователем' });
    expect((await inject('POST', `/api/v1/video/requests/${id}/cancel`, owner)).json()).toEqual({
      messages: ['video_request_not_cancellable'],
    });
    online(vehicleId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await row(id)).status).toBe(14);
    expect((await inject('POST', `/api/v1/video/requests/${id}/retry`, owner)).statusCode).toBe(200);
    const done = await until(id, [6]);
    expect(done.seen[0]).toBeLessThanOrEqual(2);
    expect((await inject('POST', `/api/v1/video/requests/${id}/retry`, owner)).json()).toEqual({
      messages: ['video_request_not_retryable'],
    });
  });

  it('deletes with the rights of the spec: 27 one’s own, 24 anyone’s, nothing without them', async () => {
    const a = vehicle();
    online(a.vehicleId);
    const mine = await created(a.vehicleId, 1);
    const theirs = await created(a.vehicleId, 1, looker);
    // The looker holds neither 24 nor 27: not even their own.
    expect((await inject('DELETE', `/api/v1/video/requests/${theirs}`, looker)).statusCode).toBe(403);
    // Olga holds 27: her own yes, somebody else's no.
    expect((await inject('DELETE', `/api/v1/video/requests/${theirs}`, owner)).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/v1/video/requests/${mine}`, owner)).statusCode).toBe(200);
    // The archivist holds 24: anybody's.
    expect((await inject('DELETE', `/api/v1/video/requests/${theirs}`, archivist)).statusCode).toBe(200);
    for (const id of [mine, theirs]) {
      expect((await until(id, [9])).seen).toContain(9);
      expect((await journal(id)).map((e) => e.details?.status ?? e.kind)).toEqual(expect.arrayContaining([8, 'deleted', 9]));
    }
    expect((await myList()).list.some((r: { id: number }) => r.id === mine)).toBe(false);
    expect((await myList(owner, '?status=9')).list.some((r: { id: number }) => r.id === mine)).toBe(true);
    expect((await inject('DELETE', `/api/v1/video/requests/${mine}`, owner)).statusCode).toBe(404);
  });

  it('deletes finished requests past the archive keeping time of /system/video', async () => {
    const { vehicleId } = vehicles[0];
    const id = await created(vehicleId, 1);
    await t.db.query("update app.video_request set status = 12, created_at = now() - interval '15 days' where id = $1", [id]);
    expect(await app.video.worker.sweep()).toBeGreaterThanOrEqual(1);
    expect(await until(id, [9])).toMatchObject({ status: 9 });
    expect((await journal(id)).at(-2)).toMatchObject({ details: { status: 8, reason: 'Истёк срок хранения видеоархива' } });
  });

  it('lists all requests with their user for /video/requests, and only one’s own for /video/myrequests', async () => {
    await created(vehicles[0].vehicleId, 1, looker);
    const all = (await inject('GET', '/api/v1/reports/video/requests', archivist)).json();
    expect(all.list.some((r: { username: string }) => r.username === 'looker')).toBe(true);
    expect((await myList()).list.every((r: { id: number }) => all.list.some((x: { id: number }) => x.id === r.id))).toBe(true);
    const ids = (await t.db.query<{ id: number }>('select id from app.video_request where user_id = $1 and status <> 9', [ownerId])).map(
      (r) => r.id,
    );
    expect((await myList()).count).toBe(ids.length);
    // The video journal is a report too.
    const journalRows = (await inject('GET', '/api/v1/journals/video?type=request', await t.login('admin', 'admin123'))).json();
    expect(journalRows.count).toBeGreaterThan(0);
  });

  it('survives a restart in the middle of a download, and after a crash once the lease runs out', async () => {
    const { vehicleId } = vehicle();
    online(vehicleId);
    const id = await created(vehicleId, 5);
    await until(id, [4]);
    while ((await row(id)).progress < 10) await new Promise((resolve) => setTimeout(resolve, 30));
    await app.close();
    const stopped = await row(id);
    expect(stopped.status).toBe(4);
    // A crash: the lease of the process that died is still held for a while.
    await t.db.query("update app.video_request set lease_owner = 'crashed', lease_until = now() + interval '4 seconds' where id = $1", [
      id,
    ]);

    app = await buildApp(
      { ...loadConfig({ LOG_LEVEL: 'silent', DEMO_DATA: 'false' }), dataDir: undefined, staticDir: undefined, demoData: false },
      { db: t.db },
    );
    await app.ready();
    online(vehicleId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // While the dead process's lease holds, nobody touches the request (a slow start may outlast it: then skip).
    const [held] = await t.db.query<{ held: boolean; progress: number }>(
      "select lease_owner = 'crashed' and lease_until > now() as held, progress from app.video_request where id = $1",
      [id],
    );
    if (held.held) expect(held.progress).toBe(stopped.progress);
    const done = await until(id, [6], 30);
    expect(done.seen).not.toContain(13);
    expect(done.progress).toBe(100);
  });
});
