import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEPLOY_CONFIG, deployLayout, haproxyConfig } from '../scripts/haproxyConfig.mjs';
import { freeConsecutivePorts, startHaproxyCluster, type HaproxyCluster } from '../scripts/bench/serverProcess';
import { openPostgres } from '../src/server/db/postgres';
import { authPacket, positionsPacket } from '../src/server/telemetry/egts/terminalPackets';
import { createSource } from '../src/server/telemetry/http/sourceKeys';
import { GEO_STREAM_PATH, serializeGeoSubscription, type GeoSubscription, type MapCluster } from '../src/shared/map';
import { openStream } from './helpers/geoStream';
import { clusterTestsRunnable, TEST_REDIS_URL } from './helpers/redis';
import { clonePostgresDatabase } from './helpers/testApp';

const haproxyInstalled = spawnSync('haproxy', ['-v']).status === 0;
const runnable = (await clusterTestsRunnable('server processes behind HAProxy (cluster.haproxy.test.ts)')) && haproxyInstalled;
if (process.env.TEST_DATABASE_URL && !haproxyInstalled)
  console.warn('cluster.haproxy.test.ts: skipped, HAProxy is not installed (apt-get install haproxy)');

describe.skipIf(!haproxyInstalled)('deploy/haproxy.cfg', () => {
  it('is what scripts/haproxyConfig.mjs writes for two processes, and HAProxy accepts it', () => {
    expect(readFileSync(DEPLOY_CONFIG, 'utf8'), 'deploy/haproxy.cfg is out of date').toBe(haproxyConfig(deployLayout()));
    const check = spawnSync('haproxy', ['-c', '-q', '-f', DEPLOY_CONFIG], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
  });
});

type Points = { time: string; items: MapCluster[] };

/**
 * `npm run cluster` for real: two server processes on a scratch PostgreSQL database and Redis, HAProxy in
 * front. What one process is told, the other shows; one killed without warning, HAProxy keeps answering.
 */
describe.skipIf(!runnable)('npm run cluster: two processes behind HAProxy', () => {
  const DEVICE = 8_200_001;
  /** A terminal that connects over EGTS, through HAProxy's TCP port. */
  const TERMINAL = 8_200_002;
  let terminalVehicleId: number;
  let egtsPort: number;
  let cluster: HaproxyCluster;
  let port: number;
  let processes: HaproxyCluster['processes'] = [];
  let vehicleId: number;
  let sourceKey: string;
  let admin: string;
  let drop: () => Promise<void>;
  let databaseUrl: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'tc-haproxy-'));
  const via = (p: number) => `http://127.0.0.1:${p}`;
  const api = async (base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(admin ? { authorization: admin } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };

  beforeAll(async () => {
    const database = await clonePostgresDatabase();
    drop = database.drop;
    databaseUrl = database.url;
    const db = await openPostgres(database.url, 1);
    [{ id: vehicleId }] = await db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address) values (990201, $1) returning id',
      [DEVICE],
    );
    [{ id: terminalVehicleId }] = await db.query<{ id: number }>(
      'insert into mgt.vehicles (depot_number, peer_address) values (990202, $1) returning id',
      [TERMINAL],
    );
    ({ key: sourceKey } = await createSource(db, 'Кластер за HAProxy', null));
    await db.close();

    port = await freeConsecutivePorts(3);
    egtsPort = await freeConsecutivePorts(3);
    cluster = await startHaproxyCluster({
      DATABASE_URL: database.url,
      BUS_URL: TEST_REDIS_URL,
      BUS_PREFIX: `tc:haproxy:${process.pid}:${Date.now()}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      EGTS_ENABLED: 'true',
      EGTS_PORT: String(egtsPort),
      CLUSTER_PROCESSES: '2',
      DEMO_DATA: 'false',
      SIMULATOR: 'false',
      DATA_DIR: dataDir,
    });
    processes = cluster.processes;
  }, 120_000);

  afterAll(async () => {
    if (cluster?.alive()) {
      expect(await cluster.stop()).toBe(0);
      // every process it started is gone with it
      for (const { pid } of processes) expect(() => process.kill(pid, 0)).toThrow();
    }
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('starts two processes on the ports after PORT and balances requests over both', async () => {
    expect(processes.map((p) => p.port)).toEqual([port + 1, port + 2]);
    const leases = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const health = await api(via(port), 'GET', '/api/health');
      expect(health.status).toBe(200);
      expect(health.body.bus).toBe('shared');
      leases.add(JSON.stringify(health.body.leases));
    }
    // one process holds the singleton jobs, the other none: both answered
    expect(leases.size).toBe(2);
  });

  it('logs in through HAProxy, and the session holds on either process', async () => {
    const login = await api(via(port), 'POST', '/api/v1/auth/login', { username: 'admin', password: 'admin123' });
    expect(login.status).toBe(200);
    admin = `Bearer ${login.body.token}`;
    for (const { port: own } of processes) expect((await api(via(own), 'GET', '/api/v1/auth/current/')).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await api(via(port), 'GET', '/api/v1/auth/current/')).status).toBe(200);
  });

  it('shows a handbook record saved in one process through the other, and an edit made there back in the first', async () => {
    const [first, second] = processes.map((p) => via(p.port));
    const saved = await api(first, 'POST', '/api/table/element/save', { config: { type: 'marshtype' }, row: { title: 'Межрайонное' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const byId = async (base: string) =>
      (await api(base, 'POST', '/api/table/list', { config: { type: 'marshtype' }, filters: { id: [saved.body.id] } })).body.list as {
        title: string;
      }[];
    expect((await byId(second)).map((row) => row.title)).toEqual(['Межрайонное']);
    const edited = await api(second, 'POST', '/api/table/element/save', {
      config: { type: 'marshtype' },
      row: { ...saved.body, title: 'Межмуниципальное' },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await byId(first)).map((row) => row.title)).toEqual(['Межмуниципальное']);
  });

  it("shows a position posted to one process in the other's map stream, and in a stream opened through HAProxy", async () => {
    const [first, second] = processes.map((p) => via(p.port));
    const AREA: GeoSubscription = { bounds: [59.8, 30.1, 60.1, 30.6], zoom: 16, vehicles: [] };
    const query = `${GEO_STREAM_PATH}?q=${encodeURIComponent(serializeGeoSubscription(AREA))}`;
    const stream = await openStream(`${second}${query}`, admin);
    await stream.next('hello');
    const posted = await api(
      first,
      'POST',
      '/api/v1/telemetry/positions',
      {
        positions: [{ device: String(DEVICE), time: new Date().toISOString(), lat: 59.95, lon: 30.31, speed: 20, course: 45 }],
      },
      { 'x-telemetry-key': sourceKey },
    );
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.accepted).toBe(1);
    const shown = await stream.next<Points>('picture', (p) => p.items.some((i) => i.id === vehicleId), 3000);
    expect(shown.items.find((i) => i.id === vehicleId)).toMatchObject({ center: [59.95, 30.31] });
    await stream.close();

    // the stream is kept on one process for its whole connection: the opening picture and what follows
    const proxied = await openStream(`${via(port)}${query}`, admin);
    await proxied.next('hello');
    expect((await proxied.next<Points>('picture', (p) => p.items.some((i) => i.id === vehicleId))).items.length).toBeGreaterThan(0);
    await proxied.close();
  });

  it("takes an EGTS terminal through HAProxy's TCP port, its position shown by both processes, its own address journaled", async () => {
    expect(cluster.output()).toContain(`EGTS ${egtsPort + 1}`);
    const AREA: GeoSubscription = { bounds: [59.8, 30.1, 60.1, 30.6], zoom: 16, vehicles: [] };
    const query = `${GEO_STREAM_PATH}?q=${encodeURIComponent(serializeGeoSubscription(AREA))}`;
    const streams = await Promise.all(processes.map((p) => openStream(`${via(p.port)}${query}`, admin)));
    for (const stream of streams) await stream.next('hello');
    const socket = connect({ port: egtsPort, host: '127.0.0.1' });
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    let answers = 0;
    socket.on('data', () => (answers += 1));
    socket.write(authPacket(0, 0, { tid: TERMINAL }));
    await vi.waitUntil(() => answers > 0, { timeout: 3000, interval: 20 });
    socket.write(
      positionsPacket(1, [{ rn: 1, fixes: [{ time: Date.now() - 1000, lat: 59.97, lon: 30.33, speed: 30, course: 90, valid: true }] }]),
    );
    for (const stream of streams) {
      const shown = await stream.next<Points>('picture', (p) => p.items.some((i) => i.id === terminalVehicleId), 3000);
      expect(shown.items.find((i) => i.id === terminalVehicleId)?.center).toEqual([59.97, 30.33]);
      await stream.close();
    }
    // HAProxy's PROXY v2 header names the terminal's end of the connection, not HAProxy's own
    const terminalEnd = `${socket.localAddress}:${socket.localPort}`;
    socket.destroy();
    const db = await openPostgres(databaseUrl, 1);
    try {
      await vi.waitUntil(
        async () => (await db.query('select 1 from app.vehicle_event where vehicle_id = $1', [terminalVehicleId])).length >= 2,
        { timeout: 5000, interval: 100 },
      );
      const journal = await db.query<{ kind: string; details: { remote: string } }>(
        'select kind, details from app.vehicle_event where vehicle_id = $1 order by id',
        [terminalVehicleId],
      );
      expect(journal.map((row) => [row.kind, row.details.remote])).toEqual([
        ['connect', terminalEnd],
        ['disconnect', terminalEnd],
      ]);
    } finally {
      await db.close();
    }
  });

  it('keeps answering through HAProxy when a process is killed', async () => {
    const [victim, survivor] = processes;
    process.kill(victim.pid, 'SIGKILL');
    const killedAt = performance.now();
    const statuses: number[] = [];
    while (performance.now() - killedAt < 3000) {
      statuses.push((await api(via(port), 'GET', '/api/v1/auth/current/')).status);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    // a new login lands on the survivor, and the cluster says the victim died and goes on
    const login = await api(via(port), 'POST', '/api/v1/auth/login', { username: 'admin', password: 'admin123' });
    expect(login.status).toBe(200);
    expect((await api(via(survivor.port), 'GET', '/api/health')).status).toBe(200);
    expect(cluster.output()).toContain(`[cluster] ${victim.name} (pid ${victim.pid}) завершился: SIGKILL`);
    expect(cluster.alive()).toBe(true);
  });
});
