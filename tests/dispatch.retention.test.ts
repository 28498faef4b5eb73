import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/server/db/migrate';
import type { PassageRecord } from '../src/server/dispatch/engineTypes';
import { writePassages } from '../src/server/dispatch/store';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

const DAY = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const partitionOf = (date: string) => `stop_passage_${date.replaceAll('-', '')}`;

/** dispatch.stop_passage as 130_dispatch.sql made it: a partition a month. */
const MONTHLY = [
  `create table dispatch.stop_passage (
     service_date date not null, vehicle_id int not null, route_id int not null, direction smallint not null,
     rasp_variant_id int not null, graph int not null, smena text not null, race_num int not null, trip_id int,
     stop_id int not null, stop_sequence int not null, day_type smallint not null check (day_type between 0 and 2),
     schedule_arrival timestamptz not null, schedule_departure timestamptz not null, actual_arrival timestamptz,
     actual_departure timestamptz, interpolated boolean not null default false,
     primary key (service_date, rasp_variant_id, graph, smena, race_num, stop_sequence, vehicle_id)
   ) partition by range (service_date)`,
  'create index stop_passage_route_idx on dispatch.stop_passage (service_date, route_id, direction)',
  'create index stop_passage_stop_idx on dispatch.stop_passage (stop_id, service_date)',
  `create function dispatch.ensure_passage_partition(p_date date) returns void language plpgsql as $$
   declare
     v_from date := date_trunc('month', p_date)::date;
     v_name text := format('stop_passage_%s', to_char(p_date, 'YYYY_MM'));
   begin
     if to_regclass('dispatch.' || v_name) is null then
       execute format('create table if not exists dispatch.%I partition of dispatch.stop_passage for values from (%L) to (%L)',
         v_name, v_from, (v_from + interval '1 month')::date);
     end if;
   end $$`,
];

describe.each(ENGINES)('stop passages by service date, kept DISPATCH_RETENTION_DAYS, on %s', (engine) => {
  let t: TestApp;
  const now = Date.now();
  const today = dateOf(now);
  const insert = (date: string, vehicleId: number, sequence = 1) =>
    t.db.query(
      `insert into dispatch.stop_passage (service_date, vehicle_id, route_id, direction, rasp_variant_id, graph, smena, race_num, stop_id,
         stop_sequence, day_type, schedule_arrival, schedule_departure, actual_arrival, actual_departure)
       values ($1::date, $2, 1, 0, 1, 1, '1', 1, 100 + $3, $3, 0, $1::date + time '08:00', $1::date + time '08:00', $1::date + time '08:01', $1::date + time '08:02')`,
      [date, vehicleId, sequence],
    );
  const rows = () =>
    t.db.query<{ date: string; vehicle_id: number; place: string }>(
      `select to_char(service_date, 'YYYY-MM-DD') as date, vehicle_id, tableoid::regclass::text as place
         from dispatch.stop_passage order by service_date, vehicle_id, stop_sequence`,
    );
  const partitions = async () =>
    (
      await t.db.query<{ name: string }>(
        `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
          where i.inhparent = 'dispatch.stop_passage'::regclass order by c.relname`,
      )
    ).map((row) => row.name);

  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t?.close());

  it('migration 141 turns the monthly partitions into days, keeping every row', async () => {
    // the table as it was before 141, with passages over two months
    await t.db.query('drop table dispatch.stop_passage');
    for (const statement of MONTHLY) await t.db.query(statement);
    const dates = ['2026-10-30', '2026-10-31', '2026-11-02', today];
    for (const [i, date] of dates.entries()) {
      await t.db.query('select dispatch.ensure_passage_partition($1::date)', [date]);
      await insert(date, 500 + i);
      await insert(date, 500 + i, 2);
    }
    await t.db.query("delete from app.migration where name = '141_dispatch_passage_days.sql'");
    expect(await migrate(t.db)).toEqual(['141_dispatch_passage_days.sql']);

    const after = await rows();
    expect(after).toHaveLength(8);
    for (const [i, date] of dates.entries())
      expect(after.filter((row) => row.date === date).map((row) => [row.vehicle_id, row.place])).toEqual([
        [500 + i, `dispatch.${partitionOf(date)}`],
        [500 + i, `dispatch.${partitionOf(date)}`],
      ]);
    const names = await partitions();
    expect(names).toContain('stop_passage_default');
    for (let ahead = 0; ahead <= 3; ahead++) expect(names).toContain(partitionOf(dateOf(now + ahead * DAY)));
    expect(names.filter((name) => /_\d{4}_\d{2}$/.test(name))).toEqual([]);
    // the key holds: a passage seen again replaces its times
    await t.db.query(
      `insert into dispatch.stop_passage (service_date, vehicle_id, route_id, direction, rasp_variant_id, graph, smena, race_num, stop_id,
         stop_sequence, day_type, schedule_arrival, schedule_departure)
       values ('2026-10-30', 500, 1, 0, 1, 1, '1', 1, 101, 1, 0, now(), now())
       on conflict (service_date, rasp_variant_id, graph, smena, race_num, stop_sequence, vehicle_id) do update set interpolated = true`,
    );
    expect(await rows()).toHaveLength(8);
    expect(await t.db.query("select 1 from pg_proc where proname = 'ensure_passage_partition'")).toEqual([]);
  });

  it("drops the service dates past the retention whole and keeps the newer ones; the writer's dates go to their day", async () => {
    const partitioner = t.app.dispatch.partitions!;
    await t.db.query('delete from dispatch.stop_passage');
    const retention = 400;
    const old = dateOf(now - (retention + 5) * DAY);
    const stray = dateOf(now - (retention + 20) * DAY);
    const kept = dateOf(now - (retention - 5) * DAY);
    // a date past the retention with its partition (made before it ran out), a stray in the default partition
    await t.db.query("select app.ensure_day_partitions('dispatch.stop_passage', $1::date, $1::date)", [old]);
    await t.db.query("select app.ensure_day_partitions('dispatch.stop_passage', $1::date, $1::date)", [kept]);
    await insert(old, 601);
    await insert(stray, 602);
    await insert(kept, 603);
    await insert(today, 604);
    // the writer makes the day of a date it writes (one with no partition yet, within the retention)
    const written = dateOf(now - 30 * DAY);
    const run = {
      key: 'k',
      serviceDate: written,
      routeId: 1,
      direction: 0,
      variantId: 1,
      graph: 1,
      smena: '1',
      raceNum: 1,
      tripId: null,
      stopIds: [101],
      sequences: [1],
      dayType: 0,
      times: [now - 30 * DAY],
    };
    const passage = { run, stopIndex: 0, vehicleId: 605, arrival: now - 30 * DAY, departure: now - 30 * DAY + 60_000, interpolated: false };
    await writePassages(t.db, [passage as unknown as PassageRecord], partitioner);
    expect((await rows()).map((row) => [row.date, row.place])).toEqual([
      [stray, 'dispatch.stop_passage_default'],
      [old, `dispatch.${partitionOf(old)}`],
      [kept, `dispatch.${partitionOf(kept)}`],
      [written, `dispatch.${partitionOf(written)}`],
      [today, `dispatch.${partitionOf(today)}`],
    ]);

    const outcome = await partitioner.maintain(now);
    expect(outcome.dropped).toContain(partitionOf(old));
    expect(outcome.dropped).not.toContain(partitionOf(kept));
    expect(outcome.expired).toBe(1);
    expect((await rows()).map((row) => [row.date, row.vehicle_id])).toEqual([
      [kept, 603],
      [written, 605],
      [today, 604],
    ]);
    expect(await partitions()).not.toContain(partitionOf(old));
    // a second pass finds nothing more to do
    expect(await partitioner.maintain(now)).toEqual({ made: 0, dropped: [], postponed: [], expired: 0 });
  });
});
