import type { Queryable } from '../types';
import type { DemoScale } from './generate';

/**
 * The demo's on-board sensor data (PDM): a data-logger tree for each of the three commonest vehicle models
 * (a bus, a trolleybus, a tram), assigned to some of their vehicles, and DEMO_PDM_DAYS of history made in SQL,
 * shaped as the live simulator's (src/server/pdm/sensorSimulator.ts) with a few vehicles overheating, losing
 * voltage, faulting and going silent; then rollups and states are rebuilt from it. The last DEMO_PDM_DETAIL_HOURS
 * come every 10 minutes (the charts of a day read them by the minute), the days before every 15 minutes: no
 * longer than the sensors' silence time-outs, so only the silent sensors show «Нет данных», and a week's
 * reports (the default periods) are covered whole at a fraction of the rows. The channels are those the
 * simulator's terminals send.
 */
export const DEMO_PDM_DAYS = 8;
const DEMO_PDM_DETAIL_HOURS = 48;
const VEHICLES_PER_MODEL: Record<DemoScale, number> = { city: 40, test: 3 };

interface NodeSpec {
  name: string;
  kind: 'logger' | 'unit' | 'sensor';
  children?: NodeSpec[];
  sensor?: {
    type: string;
    channelKind: string;
    channel: number;
    unit: string;
    scale?: number;
    offset?: number;
    normal?: [number | null, number | null];
    fault?: [number | null, number | null];
    silence?: number;
  };
}

const engine = (withOil: boolean): NodeSpec => ({
  name: 'Двигатель',
  kind: 'unit',
  children: [
    {
      name: 'Температура ОЖ',
      kind: 'sensor',
      sensor: {
        type: 'engine_temp',
        channelKind: 'analog',
        channel: 1,
        unit: '°C',
        scale: 0.1,
        offset: -40,
        normal: [60, 100],
        fault: [null, 110],
        silence: 900,
      },
    },
    ...(withOil
      ? [
          <NodeSpec>{
            name: 'Давление масла',
            kind: 'sensor',
            sensor: {
              type: 'oil_pressure',
              channelKind: 'analog',
              channel: 3,
              unit: 'бар',
              scale: 0.01,
              normal: [2, 6],
              fault: [1, null],
              silence: 900,
            },
          },
        ]
      : []),
    {
      name: 'Уровень ОЖ',
      kind: 'sensor',
      sensor: { type: 'coolant_level', channelKind: 'digital', channel: 1, unit: '', normal: [1, null], fault: [0.5, null], silence: 1200 },
    },
  ],
});
const electrics: NodeSpec = {
  name: 'Электрооборудование',
  kind: 'unit',
  children: [
    {
      name: 'Напряжение бортсети',
      kind: 'sensor',
      sensor: {
        type: 'voltage',
        channelKind: 'analog',
        channel: 2,
        unit: 'В',
        scale: 0.001,
        normal: [25, 29.5],
        fault: [23, 31],
        silence: 900,
      },
    },
  ],
};
const doors: NodeSpec = {
  name: 'Двери',
  kind: 'unit',
  children: [
    {
      name: 'Циклы открывания дверей',
      kind: 'sensor',
      sensor: { type: 'door_cycles', channelKind: 'counter', channel: 1, unit: 'шт', silence: 1200 },
    },
  ],
};
const fuel: NodeSpec = {
  name: 'Топливная система',
  kind: 'unit',
  children: [
    {
      name: 'Уровень топлива',
      kind: 'sensor',
      sensor: { type: 'fuel_level', channelKind: 'liquid', channel: 0, unit: '%', normal: [15, null], fault: [5, null], silence: 900 },
    },
  ],
};

const TREES: Record<string, (model: string) => NodeSpec[]> = {
  bus: (model) => [{ name: `Регистратор ${model}`, kind: 'logger', children: [engine(true), fuel, electrics, doors] }],
  trolleybus: (model) => [{ name: `Регистратор ${model}`, kind: 'logger', children: [electrics, doors] }],
  tram: (model) => [{ name: `Регистратор ${model}`, kind: 'logger', children: [electrics, doors] }],
};

async function insertNodes(tx: Queryable, treeId: number, parentId: number | null, specs: NodeSpec[]): Promise<void> {
  for (const [position, spec] of specs.entries()) {
    const s = spec.sensor;
    const [{ id }] = await tx.query<{ id: number }>(
      `insert into pdm.node (tree_id, parent_id, position, name, kind, sensor_type, channel_kind, channel, unit, scale, "offset", normal_min, normal_max, fault_min, fault_max, silence_s)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) returning id`,
      [
        treeId,
        parentId,
        position,
        spec.name,
        spec.kind,
        s?.type ?? null,
        s?.channelKind ?? null,
        s?.channel ?? null,
        s?.unit ?? null,
        s?.scale ?? 1,
        s?.offset ?? 0,
        s?.normal?.[0] ?? null,
        s?.normal?.[1] ?? null,
        s?.fault?.[0] ?? null,
        s?.fault?.[1] ?? null,
        s?.silence ?? 300,
      ],
    );
    if (spec.children) await insertNodes(tx, treeId, id, spec.children);
  }
}

/** Values as the simulator makes them (same waves, same vehicles drifting), already in the nodes' units. */
const VALUE_SQL = `
  case n.sensor_type
    when 'engine_temp' then 86 + 3 * sin(2 * pi() * e / 1800 + ph) + case when h % 11 = 0 or tv.vehicle_id = first.vehicle_id then greatest(0, 30 * sin(2 * pi() * e / 7200 + ph)) else 0 end
    when 'voltage' then 27.8 + 0.3 * sin(2 * pi() * e / 600 + ph) - case when h % 13 = 0 then greatest(0, 5 * sin(2 * pi() * e / 5400 + ph)) else 0 end
    when 'oil_pressure' then greatest(0, 3.6 + 0.3 * sin(2 * pi() * e / 900 + ph) - case when h % 19 = 0 then greatest(0, 3 * sin(2 * pi() * e / 3600 + ph)) else 0 end)
    when 'coolant_level' then case when h % 7 = 0 and sin(2 * pi() * e / 2700 + ph) > 0.85 then 0 else 1 end
    when 'fuel_level' then 95 - 80 * ((e / 28800 + (h % 97) / 97.0) - floor(e / 28800 + (h % 97) / 97.0))
    when 'door_cycles' then floor(e / 45 + h % 500)
    else 0 end`;

export async function insertDemoPdm(tx: Queryable, scale: DemoScale, today: Date): Promise<void> {
  const models = await tx.query<{ model: string; kind: string }>(
    `select v.model, case v.vehicle_type_id when 1 then 'bus' when 2 then 'trolleybus' else 'tram' end as kind
       from mgt.vehicles v where v.model is not null group by v.model, v.vehicle_type_id order by count(*) desc`,
  );
  const chosen = new Map<string, string>();
  for (const { model, kind } of models) if (!chosen.has(kind) && TREES[kind]) chosen.set(kind, model);
  for (const [kind, model] of chosen) {
    const [{ id: treeId }] = await tx.query<{ id: number }>('insert into pdm.tree (name, model) values ($1, $2) returning id', [
      `${model}: регистратор`,
      model,
    ]);
    await insertNodes(tx, treeId, null, TREES[kind](model));
    await tx.query(
      `insert into pdm.tree_vehicle (vehicle_id, tree_id) select id, $1 from mgt.vehicles where model = $2 order by id limit $3`,
      [treeId, model, VEHICLES_PER_MODEL[scale]],
    );
  }
  const to = new Date(Math.floor(today.getTime() / 600_000) * 600_000);
  const detail = new Date(to.getTime() - DEMO_PDM_DETAIL_HOURS * 3_600_000);
  const from = new Date(to.getTime() - DEMO_PDM_DAYS * 24 * 3_600_000);
  await tx.query(
    "select app.ensure_day_partitions('pdm.reading', $1::date, $2::date), app.ensure_day_partitions('pdm.reading_minute', $1::date, $2::date)",
    [from.toISOString().slice(0, 10), to.toISOString().slice(0, 10)],
  );
  // Hash and phase of a vehicle as the simulator's (an integer mix; the phase only needs to differ per vehicle).
  await tx.query(
    `insert into pdm.reading (vehicle_id, node_id, tm, value, error)
     select x.vehicle_id, x.node_id, x.tm, x.value, x.error from (
       select tv.vehicle_id, n.id as node_id, t as tm,
              round(((${VALUE_SQL} - n."offset") / n.scale)::numeric, 0)::float8 * n.scale + n."offset" as value,
              (n.sensor_type = 'fuel_level' and h % 23 = 0 and sin(2 * pi() * e / 3000 + ph) > 0.9) as error,
              (n.sensor_type = 'oil_pressure' and h % 17 = 0 and sin(2 * pi() * e / 10800 + ph) > 0.8) as silent
         from pdm.tree_vehicle tv join pdm.node n on n.tree_id = tv.tree_id and n.channel_kind is not null
         cross join (select generate_series($1::timestamptz, $3::timestamptz - interval '15 minutes', interval '15 minutes')
                     union all select generate_series($3::timestamptz, $2::timestamptz, interval '10 minutes')) s(t)
         cross join lateral (select extract(epoch from t) as e, (tv.vehicle_id * 2654435761::bigint) % 1000003 as h, ((tv.vehicle_id * 7919) % 1000) / 160.0 as ph) k
         -- the fleet's first vehicle with a tree overheats in the history too, so a small demo's week has episodes
         cross join (select min(vehicle_id) as vehicle_id from pdm.tree_vehicle) first
     ) x where not x.silent`,
    [from.toISOString(), to.toISOString(), detail.toISOString()],
  );
  await tx.query('select pdm.rebuild_rollups($1::timestamptz, $2::timestamptz)', [
    from.toISOString(),
    new Date(to.getTime() + 60_000).toISOString(),
  ]);
  // The heat map's places: each hour of a vehicle at one of the city's stops, moving along the day.
  await tx.query(
    `with s as (select array_agg(stop_lat order by stop_id) as la, array_agg(stop_lon order by stop_id) as lo, count(*)::int as n from mgt.stops where stop_lat is not null)
     update pdm.reading_hour r set lat = s.la[1 + ((r.vehicle_id * 37 + extract(epoch from r.bucket)::bigint / 3600) % s.n)::int],
                                   lon = s.lo[1 + ((r.vehicle_id * 37 + extract(epoch from r.bucket)::bigint / 3600) % s.n)::int]
       from s where s.n > 0`,
  );
  await tx.query('select pdm.rebuild_states()');
  // A few service records: repairs of the engines that overheated, one due soon, one overdue.
  await tx.query(
    `insert into pdm.service_record (vehicle_id, node_id, tm, work, next_due, comment)
     select tv.vehicle_id, n.parent_id, $1::timestamptz - make_interval(days => (tv.vehicle_id % 20)), case when tv.vehicle_id % 3 = 0 then 'repair' else 'maintenance' end,
            ($1::timestamptz)::date + ((tv.vehicle_id % 40) - 10), 'Плановая проверка датчиков'
       from pdm.tree_vehicle tv join pdm.node n on n.tree_id = tv.tree_id and n.sensor_type = 'voltage'
     on conflict do nothing`,
    [to.toISOString()],
  );
}
