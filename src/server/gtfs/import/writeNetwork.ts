import type { Queryable } from '../../db/types';
import type { FeedStop, GtfsFeed } from '../feed/gtfsFeed';
import { lineWkt, planRoute, transportCode, tripsByRoute, type RoutePlan } from './networkPlan';
import type { ServiceDays } from './serviceCalendar';

/** Rows of schedule times per write (a COPY, or an insert from arrays): few round trips, bounded memory. */
const TIME_BATCH = 20_000;

export interface WriteCounts {
  agencies: number;
  stops: number;
  routes: number;
  patterns: number;
  variants: number;
  holidays: number;
  runs: number;
  scheduleTimes: number;
  /** Records of an earlier import that this feed no longer has: routes and variants end-dated. */
  closedRoutes: number;
  closedVariants: number;
  /** Vehicle tasks from today on whose exit the new timetable no longer has. */
  removedTasks: number;
}

export interface WriteOptions {
  /** The operator's today (ISO): what disappeared is closed from it on. */
  today: string;
  shiftSeconds: number;
  /** Called after each route with the share done; throws to cancel (the transaction is rolled back). */
  progress(done: number): Promise<void> | void;
}

/** The external keys of one kind: GTFS id → the handbook record's id. */
async function keysOf(tx: Queryable, kind: string): Promise<Map<string, number>> {
  const rows = await tx.query<{ gtfs_id: string; local_id: number }>('select gtfs_id, local_id from gtfs.external_key where kind = $1', [
    kind,
  ]);
  return new Map(rows.map((r) => [r.gtfs_id, r.local_id]));
}

async function saveKey(tx: Queryable, kind: string, gtfsId: string, localId: number, extra: unknown = null): Promise<void> {
  await tx.query(
    `insert into gtfs.external_key (kind, gtfs_id, local_id, extra) values ($1, $2, $3, $4::jsonb)
     on conflict (kind, gtfs_id) do update set local_id = excluded.local_id, extra = excluded.extra`,
    [kind, gtfsId, localId, extra === null ? null : JSON.stringify(extra)],
  );
}

/** The statements of one upsert: the insert answers the new id; the update, given the known id, answers it if the record is still there. */
interface UpsertSql {
  insert: [string, unknown[]];
  update: (id: number) => [string, unknown[]];
}

/** Upserts one record by its external key: the record the key names when it still exists, else a new one. */
async function upsert(
  tx: Queryable,
  keys: Map<string, number>,
  kind: string,
  gtfsId: string,
  sql: UpsertSql,
  extra: unknown = null,
): Promise<number> {
  const known = keys.get(gtfsId);
  if (known !== undefined) {
    const updated = await tx.query<{ id: number }>(...sql.update(known));
    if (updated.length) {
      if (extra !== null) await saveKey(tx, kind, gtfsId, known, extra);
      return known;
    }
  }
  const [row] = await tx.query<{ id: number }>(...sql.insert);
  keys.set(gtfsId, row.id);
  await saveKey(tx, kind, gtfsId, row.id, extra);
  return row.id;
}

async function writeAgencies(tx: Queryable, feed: GtfsFeed): Promise<Map<string, number>> {
  const keys = await keysOf(tx, 'agency');
  for (const agency of feed.agencies) {
    await upsert(
      tx,
      keys,
      'agency',
      agency.id,
      {
        insert: [
          `insert into mgt.agency (title, phone, transporter_id)
                values ($1, $2, (select coalesce(max(transporter_id), 0) + 1 from mgt.agency where transporter_id < 32767)) returning agency_id as id`,
          [agency.name, agency.phone || null],
        ],
        update: (id) => [
          'update mgt.agency set title = $1, phone = coalesce($2, phone) where agency_id = $3 returning agency_id as id',
          [agency.name, agency.phone || null, id],
        ],
      },
      { url: agency.url, timezone: agency.timezone, lang: agency.lang },
    );
  }
  return keys;
}

/**
 * Stops and platforms, and whatever else trips stop at, become the handbook's stops; a platform's station is kept
 * with its key (the product has no station).
 */
async function writeStops(tx: Queryable, feed: GtfsFeed): Promise<Int32Array> {
  const keys = await keysOf(tx, 'stop');
  const local = new Int32Array(feed.stops.length).fill(-1);
  const served = new Uint8Array(feed.stops.length);
  for (let i = 0; i < feed.stopTimes.length; i++) served[feed.stopTimes.stop[i]] = 1;
  const stationOf = (stop: FeedStop) => (stop.parent ? feed.stops[feed.stopIndex.get(stop.parent)!] : undefined);
  for (let i = 0; i < feed.stops.length; i++) {
    const stop = feed.stops[i];
    if (stop.locationType !== 0 && !served[i]) continue;
    const station = stationOf(stop);
    const values = [stop.name || station?.name || stop.id, stop.lat, stop.lon];
    local[i] = await upsert(
      tx,
      keys,
      'stop',
      stop.id,
      {
        insert: ['insert into mgt.stops (stop_name, stop_lat, stop_lon) values ($1, $2, $3) returning stop_id as id', values],
        update: (id) => [
          'update mgt.stops set stop_name = $1, stop_lat = $2, stop_lon = $3 where stop_id = $4 returning stop_id as id',
          [...values, id],
        ],
      },
      { code: stop.code, station: station ? { id: station.id, name: station.name, lat: station.lat, lon: station.lon } : null },
    );
  }
  return local;
}

/**
 * The reference rows routes need, made when a new install has none: the kind of service («Городской») and the
 * transport types of the feed's routes.
 */
async function ensureReferences(tx: Queryable, feed: GtfsFeed): Promise<number> {
  const titles: Record<string, string> = { А: 'Автобус', Тб: 'Троллейбус', Тм: 'Трамвай' };
  for (const code of new Set(feed.routes.map((r) => transportCode(r.type)))) {
    await tx.query(
      'insert into mgt.transport_type (title, note) select $1, $2 where not exists (select 1 from mgt.transport_type where note = $2)',
      [titles[code], code],
    );
  }
  const [row] = await tx.query<{ id: number }>('select id from mgt.marsh_type order by id limit 1');
  return row?.id ?? (await tx.query<{ id: number }>(`insert into mgt.marsh_type (title) values ('Городской') returning id`))[0].id;
}

/**
 * Writes a checked feed into the handbooks inside the caller's transaction: agencies, stops, routes with their
 * stop patterns (route variant, trips, trip stops, route stops), timetable variants, holidays and schedule times.
 * Records of an earlier import of the same ids are updated in place (their ids stay); routes and variants that
 * the feed no longer has are end-dated, not deleted; vehicle tasks from today on whose exit is gone are removed.
 */
export async function writeNetwork(tx: Queryable, feed: GtfsFeed, calendar: ServiceDays, options: WriteOptions): Promise<WriteCounts> {
  const counts: WriteCounts = {
    agencies: feed.agencies.length,
    stops: 0,
    routes: 0,
    patterns: 0,
    variants: 0,
    holidays: 0,
    runs: 0,
    scheduleTimes: 0,
    closedRoutes: 0,
    closedVariants: 0,
    removedTasks: 0,
  };
  await writeAgencies(tx, feed);
  const stops = await writeStops(tx, feed);
  counts.stops = stops.filter((s) => s >= 0).length;
  const routeKeys = await keysOf(tx, 'route');
  const variantKeys = await keysOf(tx, 'variant');
  const patternKeys = await keysOf(tx, 'pattern');
  const marshType = await ensureReferences(tx, feed);
  const ranges = feed.stopTimes.ranges(feed.trips.length);
  const byRoute = tripsByRoute(feed);
  const seenRoutes = new Set<number>();
  const seenVariants = new Set<number>();
  for (let r = 0; r < feed.routes.length; r++) {
    const plan = planRoute(feed, r, byRoute[r], ranges, calendar, options.shiftSeconds);
    const routeId = await writeRoute(tx, plan, routeKeys, marshType, options.today);
    seenRoutes.add(routeId);
    counts.routes++;
    counts.patterns += await writePatterns(tx, plan, routeId, stops, patternKeys);
    const written = await writeTimetables(tx, plan, routeId, stops, variantKeys);
    written.variantIds.forEach((id) => seenVariants.add(id));
    counts.variants += written.variantIds.length;
    counts.runs += written.runs;
    counts.scheduleTimes += written.times;
    counts.holidays += plan.calendar.holidays.length;
    await options.progress((r + 1) / feed.routes.length);
  }
  Object.assign(counts, await closeWhatDisappeared(tx, routeKeys, variantKeys, seenRoutes, seenVariants, options.today));
  return counts;
}

async function writeRoute(tx: Queryable, plan: RoutePlan, keys: Map<string, number>, marshType: number, today: string): Promise<number> {
  const { route } = plan;
  const shortName = route.shortName || route.longName;
  const longName = route.longName || route.shortName;
  const values = [longName, transportCode(route.type), shortName, route.desc || longName];
  return upsert(
    tx,
    keys,
    'route',
    route.id,
    {
      insert: [
        `insert into mgt.routes (route_long_name, route_type, route_short_name, route_desc, "MarshType_id", startdate)
              values ($1, $2, $3, $4, $5, $6::date) returning route_id as id`,
        [...values, marshType, today],
      ],
      update: (id) => [
        `update mgt.routes set route_long_name = $1, route_type = $2, route_short_name = $3, route_desc = $4, enddate = null
                      where route_id = $5 returning route_id as id`,
        [...values, id],
      ],
    },
    { agency: route.agencyId, type: route.type, color: route.color },
  );
}

/** The route's stop patterns as the handbook's trips under one route variant, and its route stops. */
async function writePatterns(
  tx: Queryable,
  plan: RoutePlan,
  routeId: number,
  stops: Int32Array,
  keys: Map<string, number>,
): Promise<number> {
  const [variant] = await tx.query<{ id: number }>(
    `select local_id as id from gtfs.external_key k join mgt.marsh_variants v on v.id = k.local_id
      where k.kind = 'route_variant' and k.gtfs_id = $1`,
    [plan.route.id],
  );
  const variantId =
    variant?.id ??
    (
      await tx.query<{ id: number }>(`insert into mgt.marsh_variants (route_id, description) values ($1, 'GTFS') returning id`, [routeId])
    )[0].id;
  if (!variant) await saveKey(tx, 'route_variant', plan.route.id, variantId);
  for (const pattern of plan.patterns) {
    const values = [variantId, pattern.raceType, lineWkt(pattern.line)];
    const tripId = await upsert(tx, keys, 'pattern', pattern.key, {
      insert: [
        'insert into mgt.trip ("MarshVariant_id", race_type, trajectory) values ($1, $2, st_geomfromtext($3, 4326)) returning id',
        values,
      ],
      update: (id) => [
        'update mgt.trip set "MarshVariant_id" = $1, race_type = $2, trajectory = st_geomfromtext($3, 4326) where id = $4 returning id',
        [...values, id],
      ],
    });
    await tx.query('delete from mgt.trip_stops where trip_id = $1', [tripId]);
    const ids = pattern.stops.map((s) => stops[s]);
    await tx.query(
      `insert into mgt.trip_stops (trip_id, stop_id, stop_sequence, kkp)
       select $1, s, n, case when n = 1 then 'B' when n = $3 then 'E' end from unnest($2::int[]) with ordinality as x(s, n)`,
      [tripId, ids, ids.length],
    );
  }
  // Route stops: each direction's longest pattern.
  await tx.query('delete from mgt.route_stop where route_id = $1', [routeId]);
  for (const [direction, raceType] of [
    [0, 'A'],
    [1, 'B'],
  ] as const) {
    const main = plan.patterns.filter((p) => p.raceType === raceType).sort((a, b) => b.stops.length - a.stops.length)[0];
    if (!main) continue;
    await tx.query(
      `insert into mgt.route_stop (route_id, direction, stop_order, stop_id) select $1, $2, n, s from unnest($3::int[]) with ordinality as x(s, n)`,
      [routeId, direction, main.stops.map((s) => stops[s])],
    );
  }
  return plan.patterns.length;
}

async function writeTimetables(
  tx: Queryable,
  plan: RoutePlan,
  routeId: number,
  stops: Int32Array,
  keys: Map<string, number>,
): Promise<{ variantIds: number[]; runs: number; times: number }> {
  const variantIds: number[] = [];
  let runs = 0;
  let times = 0;
  for (const variant of plan.calendar.variants) {
    // The timetable's code: 1 the usual one, 10 + weekday a weekday's own, 20 a single date's.
    const srvId = variant.kind === 'usual' ? 1 : variant.kind === 'weekday' ? 10 + variant.dow! : 20;
    const values = [routeId, variant.dow, srvId, variant.startdate, variant.enddate];
    const id = await upsert(tx, keys, 'variant', variant.key, {
      insert: [
        'insert into mgt.rasp_variant (route_id, dow, srv_id, startdate, enddate) values ($1, $2, $3, $4::date, $5::date) returning id',
        values,
      ],
      update: (known) => [
        'update mgt.rasp_variant set route_id = $1, dow = $2, srv_id = $3, startdate = $4::date, enddate = $5::date where id = $6 returning id',
        [...values, known],
      ],
    });
    variantIds.push(id);
    await tx.query('delete from mgt.rasp_time where "RaspVariant_id" = $1', [id]);
    const batch = timeBatch(tx, id);
    for (const exit of plan.exits.get(variant.key) ?? []) {
      for (const [race, run] of exit.runs.entries()) {
        runs++;
        const raceType = plan.patternOfTrip.get(run.trip)?.raceType ?? 'A';
        run.stops.forEach((stop, order) => batch.add(exit.graph, raceType, race + 1, order + 1, stops[stop], run.minutes[order]));
        if (batch.size() >= TIME_BATCH) times += await batch.flush();
      }
    }
    times += await batch.flush();
  }
  await tx.query('delete from mgt.holidays where route_id = $1', [routeId]);
  if (plan.calendar.holidays.length) {
    await tx.query('insert into mgt.holidays (route_id, date, dow) select $1, d, w from unnest($2::date[], $3::int[]) as x(d, w)', [
      routeId,
      plan.calendar.holidays.map((h) => h.date),
      plan.calendar.holidays.map((h) => h.dow),
    ]);
  }
  return { variantIds, runs, times };
}

const TIME_COLUMNS = '"RaspVariant_id", graph, smena, racetype, racenum, "order", stop_id, time';

/**
 * Schedule times of one variant gathered and written a batch at a time: by COPY on PostgreSQL (1.8 times the
 * rate of an insert from arrays in scripts/bench/gtfs.ts), by one insert … select from unnest on the embedded engine, which has no COPY
 * from a client.
 */
function timeBatch(
  tx: Queryable,
  variantId: number,
): { add(g: number, rt: string, rn: number, o: number, s: number, t: number): void; size(): number; flush(): Promise<number> } {
  if (tx.copyFrom) {
    const copy = tx.copyFrom.bind(tx);
    let lines: string[] = [];
    return {
      add: (g, rt, rn, o, s, t) => void lines.push(`${variantId}\t${g}\t1\t${rt}\t${rn}\t${o}\t${s}\t${t}\n`),
      size: () => lines.length,
      async flush() {
        const n = lines.length;
        if (n) await copy(`copy mgt.rasp_time (${TIME_COLUMNS}) from stdin`, lines);
        lines = [];
        return n;
      },
    };
  }
  const columns: [number[], string[], number[], number[], number[], number[]] = [[], [], [], [], [], []];
  return {
    add(g, rt, rn, o, s, t) {
      columns[0].push(g);
      columns[1].push(rt);
      columns[2].push(rn);
      columns[3].push(o);
      columns[4].push(s);
      columns[5].push(t);
    },
    size: () => columns[0].length,
    async flush() {
      const n = columns[0].length;
      if (!n) return 0;
      await tx.query(
        `insert into mgt.rasp_time (${TIME_COLUMNS})
         select $1, g, '1', rt, rn, o, s, t from unnest($2::int[], $3::text[], $4::int[], $5::int[], $6::int[], $7::int[]) as x(g, rt, rn, o, s, t)`,
        [variantId, ...columns],
      );
      for (const column of columns) column.length = 0;
      return n;
    },
  };
}

async function closeWhatDisappeared(
  tx: Queryable,
  routeKeys: Map<string, number>,
  variantKeys: Map<string, number>,
  seenRoutes: Set<number>,
  seenVariants: Set<number>,
  today: string,
): Promise<Pick<WriteCounts, 'closedRoutes' | 'closedVariants' | 'removedTasks'>> {
  const goneRoutes = [...new Set(routeKeys.values())].filter((id) => !seenRoutes.has(id));
  const goneVariants = [...new Set(variantKeys.values())].filter((id) => !seenVariants.has(id));
  const closedRoutes = await tx.query(
    `update mgt.routes set enddate = ($2::date - 1) where route_id = any($1::int[]) and (enddate is null or enddate >= $2::date) returning route_id`,
    [goneRoutes, today],
  );
  // A variant that would have started later never ran: it goes; one in force is end-dated before today.
  await tx.query('delete from mgt.rasp_variant where id = any($1::int[]) and startdate >= $2::date', [goneVariants, today]);
  const closedVariants = await tx.query(
    `update mgt.rasp_variant set enddate = greatest($2::date - 1, startdate + 1)
      where id = any($1::int[]) and (enddate is null or enddate >= $2::date) returning id`,
    [goneVariants, today],
  );
  const removedTasks = await tx.query(
    `delete from mgt.vehicle_task k
      where k.date >= $1::date and k."RaspVariant_id" = any($2::int[])
        and not exists (select 1 from mgt.rasp_time t where t."RaspVariant_id" = k."RaspVariant_id" and t.graph = k.graph and t.smena = k.smena)
      returning k.id`,
    [today, [...seenVariants]],
  );
  return { closedRoutes: closedRoutes.length, closedVariants: closedVariants.length, removedTasks: removedTasks.length };
}
