// Remote configuration benchmark: a rollout to N terminals connected over EGTS on loopback, with position
// ingestion running at the same time.
//
//   ulimit -n 20000
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/tc_bench_mnt npx tsx scripts/bench/mntRollout.ts   # 5,000 terminals
//   BENCH_TERMINALS=1000 npx tsx scripts/bench/mntRollout.ts                                               # embedded PGlite
//
// The server (small demo data, no simulator) runs in this process with the dispatcher's own timer. Each
// terminal authenticates, sends a position every BENCH_POSITION_S (5) seconds and answers every
// EGTS_SR_COMMAND_DATA with CT_COMCONF (CC_OK) after 50–500 ms, as a terminal applying a setting does.
// Printed: time from the rollout's creation until every command is final, command throughput, the
// position acknowledgement latency (p50, p95, max) during the rollout against the same before it.
import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { recreateDatabase, startDemoServer } from './benchServer';
import { CC, CT, confirmationOf, confirmationPacket, decodeCommandData, SRT_COMMAND_DATA } from '../../src/server/telemetry/egts/commands';
import { PT, SERVICE } from '../../src/server/telemetry/egts/constants';
import { FrameReader } from '../../src/server/telemetry/egts/frameReader';
import { decodeRecords } from '../../src/server/telemetry/egts/records';
import { authPacket, positionsPacket } from '../../src/server/telemetry/egts/terminalPackets';
import { defaultParameters } from '../../src/shared/equipment/parameters';

const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 5000);
const POSITION_S = Number(process.env.BENCH_POSITION_S ?? 5);
const PEER_BASE = 9_100_000;
const PORT = Number(process.env.PORT ?? 3241);

process.env.SIMULATOR = 'false';
process.env.EGTS_PORT = '0';
process.env.EQUIPMENT_TICK_MS ??= '200';
if (process.env.DATABASE_URL) await recreateDatabase(process.env.DATABASE_URL);
const { app, db, address, authorization } = await startDemoServer(PORT);
const egtsPort = await app.telemetry.startEgts(0, '127.0.0.1');

// The fleet: N vehicles with a terminal each.
await db.query(
  `insert into mgt.vehicles (depot_id, depot_number, peer_address) select (select min(depot_id) from mgt.depot), 800000 + g, $1::bigint + g from generate_series(1, $2::int) g`,
  [PEER_BASE, TERMINALS],
);
await db.query(
  `insert into mgt.dev_mnt (ip, "DevMNTType_id", vehicle_id, peer_address)
   select '10.9.0.1', (select min(id) from mgt.mnt_type), v.id, v.peer_address from mgt.vehicles v where v.peer_address > $1`,
  [PEER_BASE],
);
await app.telemetry.devices.refresh();

const acks: { at: number; ms: number }[] = [];
let commandsAnswered = 0;

function terminal(n: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: egtsPort, host: '127.0.0.1' }, () => resolve(socket));
    socket.once('error', reject);
    const reader = new FrameReader(65_553);
    const pending = new Map<number, number>();
    let pid = 1;
    socket.write(authPacket(pid++, 0, { tid: PEER_BASE + n }));
    socket.on('data', (chunk: Buffer) => {
      for (const event of reader.push(chunk)) {
        if (event.kind !== 'frame') continue;
        if (event.header.pt === PT.RESPONSE) {
          const sent = pending.get(event.body.readUInt16LE(0));
          if (sent !== undefined) acks.push({ at: Date.now(), ms: performance.now() - sent });
          continue;
        }
        for (const record of decodeRecords(event.body)) {
          if (record.rst !== SERVICE.COMMANDS) continue;
          const answers = record.subrecords
            .filter((s) => s.type === SRT_COMMAND_DATA)
            .map((s) => decodeCommandData(s.data))
            .filter((c) => c.ct === CT.COM)
            .map((c) => confirmationOf(c, CC.OK));
          if (!answers.length) continue;
          setTimeout(
            () => {
              commandsAnswered += 1;
              socket.write(confirmationPacket(pid++ & 0xffff, 1, answers));
            },
            50 + Math.random() * 450,
          ).unref();
        }
      }
    });
    const timer = setInterval(
      () => {
        const p = pid++ & 0xffff;
        pending.set(p, performance.now());
        socket.write(
          positionsPacket(p, [
            {
              rn: p,
              fixes: [{ time: Math.floor(Date.now() / 1000) * 1000, lat: 59.9 + n / 1e5, lon: 30.3, speed: 30, course: 90, valid: true }],
            },
          ]),
        );
      },
      POSITION_S * 1000 * (0.8 + Math.random() * 0.4),
    );
    timer.unref();
    socket.on('close', () => clearInterval(timer));
  });
}

const sockets: Socket[] = [];
for (let i = 1; i <= TERMINALS; i++) {
  sockets.push(await terminal(i));
  if (i % 500 === 0) await delay(50);
}
await delay(POSITION_S * 2000);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
};
const baseline = acks.splice(0).map((a) => a.ms);

const post = async (url: string, body: unknown) => {
  const res = await fetch(`${address}${url}`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ id: number }>;
};
const configuration = await post('/api/v1/mnt/configurations', { name: 'Бенчмарк', parameters: defaultParameters() });
const fleet = (await db.query<{ id: number }>('select id from mgt.vehicles where peer_address > $1 order by id', [PEER_BASE])).map(
  (r) => r.id,
);
const group = await post('/api/v1/mnt/groups', { name: 'Бенчмарк', kind: 'static', vehicles: fleet });
const started = performance.now();
const rollout = await post('/api/v1/mnt/rollouts', {
  groupId: group.id,
  configurationId: configuration.id,
  firstShare: 10,
  errorThreshold: 5,
});
let final = 0;
let total = 0;
while (performance.now() - started < 600_000) {
  const [row] = await db.query<{ total: number; open: number; performed: number }>(
    `select count(*)::int as total, count(*) filter (where status in (1, 2, 3, 5) or retry_at is not null)::int as open, count(*) filter (where status = 6)::int as performed
       from mnt.command where rollout_id = $1`,
    [rollout.id],
  );
  total = row.total;
  if (row.open === 0) {
    final = row.performed;
    break;
  }
  await delay(250);
}
const seconds = (performance.now() - started) / 1000;
const during = acks.map((a) => a.ms);
console.log(
  JSON.stringify(
    {
      engine: db.engine,
      terminals: TERMINALS,
      groupCommands: total,
      performed: final,
      answered: commandsAnswered,
      secondsToFinal: Math.round(seconds * 10) / 10,
      commandsPerSecond: Math.round(total / seconds),
      positionAckMs: {
        before: {
          p50: Math.round(percentile(baseline, 50)),
          p95: Math.round(percentile(baseline, 95)),
          max: Math.round(Math.max(...baseline)),
        },
        during: {
          p50: Math.round(percentile(during, 50)),
          p95: Math.round(percentile(during, 95)),
          max: Math.round(Math.max(...during)),
          acks: during.length,
        },
      },
    },
    null,
    2,
  ),
);
for (const socket of sockets) socket.destroy();
await app.close();
await db.close();
process.exit(0);
