import type { Queryable } from '../../db/types';
import { dayNumber, isoOfDay } from '../import/serviceCalendar';
import { loadFeedIds, serviceToken, tripBaseId, uniqueIds, type FeedIds, type KeyExtra } from './feedIds';
import { calendarOf, variantDays, type HolidayRow, type ServiceCalendar, type VariantRow } from './serviceDates';

/** GTFS route_type of the product's transport type code (TransportType's `note`): tram 0, trolleybus 11, bus 3. */
export function gtfsRouteType(code: string): number {
  if (code === 'Тм') return 0;
  if (code === 'Тб') return 11;
  return 3;
}

export interface ExportAgency {
  id: string;
  name: string;
  url: string;
  phone: string;
  lang: string;
}
export interface ExportStop {
  id: string;
  code: string;
  name: string;
  lat: number;
  lon: number;
  locationType: 0 | 1;
  parent: string;
}
export interface ExportRoute {
  id: string;
  agencyId: string;
  shortName: string;
  longName: string;
  desc: string;
  type: number;
  color: string;
}
export interface ExportService {
  id: string;
  calendar: ServiceCalendar;
}
export interface ExportTrip {
  id: string;
  routeId: string;
  serviceId: string;
  headsign: string;
  direction: 0 | 1;
  blockId: string;
  shapeId: string;
}
export interface ExportShape {
  id: string;
  points: [number, number][];
}

/**
 * Everything of the feed but the stop times, which are streamed: a city has thousands of stops and races (one
 * small record each) but millions of stop times. `raceTrip` names each race's trip id by
 * "variant|graph|smena|racenum"; `stopIds` the feed id of each exported stop.
 */
export interface ExportPlan {
  first: string;
  last: string;
  agencies: ExportAgency[];
  stops: ExportStop[];
  routes: ExportRoute[];
  services: ExportService[];
  trips: ExportTrip[];
  shapes: ExportShape[];
  variantIds: number[];
  raceTrip: Map<string, string>;
  stopIds: Map<number, string>;
}

export interface PlanOptions {
  /** The operator's today: the calendars start on it. */
  today: string;
  periodDays: number;
  publisherName: string;
  publisherUrl: string;
  lang: string;
}

interface RaceRow {
  v: number;
  g: number;
  s: string;
  r: number;
  racetype: string;
  first_time: number;
  n: number;
  sig: string;
}

export const raceKey = (v: number, g: number, s: string, r: number) => `${v}|${g}|${s}|${r}`;

/** A race as its trip id needs it: variant, exit, shift, number, direction and first departure (minute of the day). */
export interface RaceIdentity {
  v: number;
  g: number;
  s: string;
  r: number;
  racetype: string;
  first_time: number;
}

/**
 * The trip id of each race (by raceKey), the races in the order their ids were given: by variant, exit and
 * departure, so the static feed and the live one name a race alike.
 */
export function nameTrips<R extends RaceIdentity>(
  races: readonly R[],
  routeKeyOf: (v: number) => string,
  tokenOf: (v: number) => string,
): { ordered: R[]; raceTrip: Map<string, string> } {
  const ordered = [...races].sort((a, b) => a.v - b.v || a.g - b.g || a.first_time - b.first_time || a.r - b.r || (a.s < b.s ? -1 : 1));
  const ids = uniqueIds(
    ordered.map((race) => tripBaseId(routeKeyOf(race.v), tokenOf(race.v), race.racetype === 'B' ? 'B' : 'A', race.first_time)),
  );
  return { ordered, raceTrip: new Map(ordered.map((race, i) => [raceKey(race.v, race.g, race.s, race.r), ids[i]])) };
}

/** The routes a feed of [$1, $2] exports (a route `r` in force on a day of it). */
export const ROUTE_IN_PERIOD = '(r.startdate is null or r.startdate <= $2::date) and (r.enddate is null or r.enddate >= $1::date)';

/**
 * The routes' timetable variants and the days of [first, last] each runs by the product's rule: a variant with days is
 * a service of the feed.
 */
export async function variantsOfPeriod(
  db: Queryable,
  routeIds: readonly number[],
  first: number,
  last: number,
): Promise<{ variants: VariantRow[]; daysOf: Map<number, number[]> }> {
  const variants = await db.query<VariantRow>(
    'select id, route_id, dow, startdate::text, enddate::text from mgt.rasp_variant where route_id = any($1::int[]) order by id',
    [routeIds],
  );
  const holidays = await db.query<HolidayRow>(
    'select id, route_id, date::text, dow from mgt.holidays where (route_id is null or route_id = any($1::int[])) and date between $2::date and $3::date',
    [routeIds, isoOfDay(first), isoOfDay(last)],
  );
  return { variants, daysOf: variantDays(variants, holidays, first, last) };
}

/** The stops of a GTFS id each, in force routes, their variants and holidays, and the races of those variants. */
export async function planExport(db: Queryable, options: PlanOptions): Promise<ExportPlan> {
  const first = dayNumber(options.today);
  const last = first + options.periodDays - 1;
  const ids = await loadFeedIds(db, ['agency', 'stop', 'route', 'variant']);

  const stops = await exportStops(db, ids.stop);
  const stopIds = new Map<number, string>();
  const stopName = new Map<number, string>();
  const stopAt = new Map<number, [number, number]>();
  for (const s of stops.rows) {
    stopIds.set(s.localId, s.stop.id);
    stopName.set(s.localId, s.stop.name);
    stopAt.set(s.localId, [s.stop.lon, s.stop.lat]);
  }

  const routeRows = await db.query<{
    route_id: number;
    route_long_name: string;
    route_short_name: string;
    route_desc: string;
    route_type: string;
    agency_id: number | null;
  }>(
    `select r.route_id, r.route_long_name, r.route_short_name, r.route_desc, r.route_type, d.agency_id
       from mgt.routes r left join mgt.depot d on d.depot_id = r."Depot_id"
      where ${ROUTE_IN_PERIOD} order by r.route_id`,
    [options.today, isoOfDay(last)],
  );
  const agencyRows = await db.query<{ agency_id: number; title: string; phone: string | null }>(
    'select agency_id, title, phone from mgt.agency order by agency_id',
  );
  const agencyByKey = new Map<string, number>();
  for (const a of agencyRows) {
    const key = ids.agency.imported(a.agency_id);
    if (key !== undefined) agencyByKey.set(key, a.agency_id);
  }
  const usedAgencies = new Set<number>();
  const routes: ExportRoute[] = [];
  const routeKey = new Map<number, string>();
  for (const r of routeRows) {
    const extra = ids.route.extra(r.route_id);
    const agency = (extra?.agency !== undefined ? agencyByKey.get(extra.agency) : undefined) ?? r.agency_id ?? agencyRows[0]?.agency_id;
    if (agency !== undefined) usedAgencies.add(agency);
    const key = ids.route.of(r.route_id);
    routeKey.set(r.route_id, key);
    routes.push({
      id: key,
      agencyId: agency !== undefined ? ids.agency.of(agency) : '',
      shortName: r.route_short_name,
      longName: r.route_long_name === r.route_short_name ? '' : r.route_long_name,
      // A description repeating the name says nothing (and the import fills it with the name when absent).
      desc: r.route_desc === r.route_long_name ? '' : r.route_desc,
      type: typeof extra?.type === 'number' ? extra.type : gtfsRouteType(r.route_type),
      color: extra?.color ?? '',
    });
  }
  const agencies: ExportAgency[] = agencyRows
    .filter((a) => usedAgencies.has(a.agency_id))
    .map((a) => {
      const extra = ids.agency.extra(a.agency_id);
      return {
        id: ids.agency.of(a.agency_id),
        name: a.title,
        url: extra?.url || options.publisherUrl,
        phone: a.phone ?? '',
        lang: extra?.lang || options.lang,
      };
    });

  const routeIds = routeRows.map((r) => r.route_id);
  const { variants, daysOf } = await variantsOfPeriod(db, routeIds, first, last);
  const routeOfVariant = new Map(variants.map((v) => [v.id, v.route_id]));
  const liveVariants = variants.filter((v) => daysOf.has(v.id)).map((v) => v.id);

  const races = await db.query<RaceRow>(
    `select "RaspVariant_id" v, graph g, smena s, racenum r, min(racetype) racetype, min(time)::int first_time, count(*)::int n,
            md5(string_agg(stop_id::text, ',' order by "order")) sig
       from mgt.rasp_time where "RaspVariant_id" = any($1::int[]) group by 1, 2, 3, 4`,
    [liveVariants],
  );

  // Services: one per variant that runs; variants that name the same service with other days get it qualified.
  const runningVariants = [...new Set(races.map((r) => r.v))].sort((a, b) => a - b);
  const tokenOf = new Map<number, string>();
  for (const v of runningVariants) {
    const route = routeKey.get(routeOfVariant.get(v)!)!;
    tokenOf.set(v, serviceToken(v, route, ids.variant.imported(v)));
  }
  const { serviceOf, services } = nameServices(runningVariants, tokenOf, daysOf, (v) => routeKey.get(routeOfVariant.get(v)!)!);

  // Shapes: one per stop pattern (route, direction, stops) of the races, along the handbook trip of that
  // pattern (else of the same termini, else straight through the stops).
  const patterns = await racePatterns(db, races);
  const handbookLines = await handbookTrajectories(db, routeIds, options.today);
  const shapeOfPattern = new Map<string, string>();
  const shapes: ExportShape[] = [];
  const byRouteDirection = new Map<string, { sig: string; stops: number[] }[]>();
  for (const [sig, p] of patterns) {
    const key = `${p.route}|${p.raceType}`;
    (byRouteDirection.get(key) ?? byRouteDirection.set(key, []).get(key)!).push({ sig, stops: p.stops });
  }
  for (const [key, list] of [...byRouteDirection].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [route, raceType] = key.split('|');
    const routeId = Number(route);
    const named = list
      .map((p) => ({ ...p, keys: p.stops.map((s) => stopIds.get(s) ?? '').join('\u0000') }))
      .sort((a, b) => b.stops.length - a.stops.length || (a.keys < b.keys ? -1 : a.keys > b.keys ? 1 : 0));
    named.forEach((p, i) => {
      const id = `${routeKey.get(routeId)}-${raceType}${i ? `-${i + 1}` : ''}`;
      shapeOfPattern.set(p.sig, id);
      const line =
        matchTrajectory(handbookLines.get(routeId) ?? [], raceType, p.stops) ??
        p.stops.map((s) => stopAt.get(s)).filter((x): x is [number, number] => x !== undefined);
      if (line.length >= 2) shapes.push({ id, points: line });
    });
  }
  const shaped = new Set(shapes.map((s) => s.id));

  // Trips: one per race; blocks are the exits, named by their first race.
  const { ordered, raceTrip } = nameTrips(
    races,
    (v) => routeKey.get(routeOfVariant.get(v)!)!,
    (v) => tokenOf.get(v)!,
  );
  const blockOf = new Map<string, string>();
  const trips: ExportTrip[] = ordered.map((race) => {
    const id = raceTrip.get(raceKey(race.v, race.g, race.s, race.r))!;
    const exit = `${race.v}|${race.g}`;
    if (!blockOf.has(exit)) blockOf.set(exit, id);
    const pattern = patterns.get(patternKey(routeOfVariant.get(race.v)!, race))!;
    const shapeId = shapeOfPattern.get(patternKey(routeOfVariant.get(race.v)!, race)) ?? '';
    return {
      id,
      routeId: routeKey.get(routeOfVariant.get(race.v)!)!,
      serviceId: serviceOf.get(race.v)!,
      headsign: stopName.get(pattern.stops[pattern.stops.length - 1]) ?? '',
      direction: race.racetype === 'B' ? 1 : 0,
      blockId: blockOf.get(exit)!,
      shapeId: shaped.has(shapeId) ? shapeId : '',
    };
  });

  return {
    first: isoOfDay(first),
    last: isoOfDay(last),
    agencies,
    stops: stops.feed,
    routes,
    services,
    trips,
    shapes,
    variantIds: runningVariants,
    raceTrip,
    stopIds,
  };
}

const patternKey = (routeId: number, race: RaceRow) => `${routeId}|${race.racetype === 'B' ? 'B' : 'A'}|${race.sig}`;

/** Stops with a place, each with its feed id and code, and the stations of imported stops. */
async function exportStops(db: Queryable, ids: FeedIds): Promise<{ rows: { localId: number; stop: ExportStop }[]; feed: ExportStop[] }> {
  const rows = await db.query<{ stop_id: number; stop_name: string; stop_lat: number; stop_lon: number }>(
    'select stop_id, stop_name, stop_lat, stop_lon from mgt.stops where stop_lat is not null and stop_lon is not null order by stop_id',
  );
  const stations = new Map<string, ExportStop>();
  const result = rows.map((s) => {
    const extra: KeyExtra | null = ids.extra(s.stop_id);
    const station = extra?.station;
    if (station && !stations.has(station.id)) {
      stations.set(station.id, {
        id: station.id,
        code: '',
        name: station.name,
        lat: station.lat,
        lon: station.lon,
        locationType: 1,
        parent: '',
      });
    }
    return {
      localId: s.stop_id,
      stop: {
        id: ids.of(s.stop_id),
        code: extra?.code ?? '',
        name: s.stop_name,
        lat: s.stop_lat,
        lon: s.stop_lon,
        locationType: 0 as const,
        parent: station?.id ?? '',
      },
    };
  });
  // A station is a place of its own in the feed: one whose id a stop has too is left out (its stops stay plain).
  const stopKeys = new Set(result.map((r) => r.stop.id));
  const kept = [...stations.values()].filter((s) => !stopKeys.has(s.id) && Number.isFinite(s.lat) && Number.isFinite(s.lon));
  const keptIds = new Set(kept.map((s) => s.id));
  for (const r of result) if (r.stop.parent && !keptIds.has(r.stop.parent)) r.stop.parent = '';
  return { rows: result, feed: [...kept, ...result.map((r) => r.stop)] };
}

/**
 * Service ids of the running variants: each its token; when variants share a token but not their days, the
 * days most of them have keep it and the others get the route's id after it.
 */
function nameServices(
  variants: number[],
  tokenOf: Map<number, string>,
  daysOf: Map<number, number[]>,
  routeKeyOf: (v: number) => string,
): { serviceOf: Map<number, string>; services: ExportService[] } {
  const groups = new Map<string, number[]>();
  for (const v of variants) (groups.get(tokenOf.get(v)!) ?? groups.set(tokenOf.get(v)!, []).get(tokenOf.get(v)!)!).push(v);
  const serviceOf = new Map<number, string>();
  const daysOfService = new Map<string, number[]>();
  const taken = new Set(groups.keys());
  for (const [token, list] of groups) {
    const bySignature = new Map<string, number[]>();
    for (const v of list) {
      const signature = daysOf.get(v)!.join(',');
      (bySignature.get(signature) ?? bySignature.set(signature, []).get(signature)!).push(v);
    }
    const ranked = [...bySignature].sort(([a, x], [b, y]) => y.length - x.length || (a < b ? -1 : 1));
    ranked.forEach(([, members], i) => {
      let id = token;
      if (i > 0) {
        id = `${token}-${routeKeyOf(members[0])}`;
        for (let k = 2; taken.has(id); k++) id = `${token}-${routeKeyOf(members[0])}-${k}`;
        taken.add(id);
      }
      for (const v of members) serviceOf.set(v, id);
      daysOfService.set(id, daysOf.get(members[0])!);
    });
  }
  const services = [...daysOfService].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, days]) => ({ id, calendar: calendarOf(days) }));
  return { serviceOf, services };
}

/** One race per distinct stop pattern, with its stops in order. */
async function racePatterns(db: Queryable, races: RaceRow[]): Promise<Map<string, { route: number; raceType: string; stops: number[] }>> {
  const variantsRoute = await db.query<{ id: number; route_id: number }>(
    'select id, route_id from mgt.rasp_variant where id = any($1::int[])',
    [[...new Set(races.map((r) => r.v))]],
  );
  const routeOf = new Map(variantsRoute.map((v) => [v.id, v.route_id]));
  const sample = new Map<string, RaceRow>();
  for (const race of races) {
    const key = patternKey(routeOf.get(race.v)!, race);
    if (!sample.has(key)) sample.set(key, race);
  }
  const list = [...sample];
  const rows = await db.query<{ i: number; stops: number[] }>(
    `select k.i, array_agg(t.stop_id order by t."order") stops
       from unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::int[]) as k(i, v, g, s, r)
       join mgt.rasp_time t on t."RaspVariant_id" = k.v and t.graph = k.g and t.smena = k.s and t.racenum = k.r
      group by k.i`,
    [list.map((_, i) => i), list.map(([, r]) => r.v), list.map(([, r]) => r.g), list.map(([, r]) => r.s), list.map(([, r]) => r.r)],
  );
  const result = new Map<string, { route: number; raceType: string; stops: number[] }>();
  for (const row of rows) {
    const [key, race] = list[row.i];
    result.set(key, { route: routeOf.get(race.v)!, raceType: race.racetype === 'B' ? 'B' : 'A', stops: row.stops });
  }
  return result;
}

interface HandbookLine {
  raceType: string;
  stops: number[];
  points: [number, number][];
}

/** The handbook trips of the routes (the route variants in force first) with their stops and trajectory points. */
async function handbookTrajectories(db: Queryable, routeIds: number[], today: string): Promise<Map<number, HandbookLine[]>> {
  const trips = await db.query<{ id: number; route_id: number; race_type: string; stops: number[] | null }>(
    `select t.id, mv.route_id, t.race_type, (select array_agg(s.stop_id order by s.stop_sequence) from mgt.trip_stops s where s.trip_id = t.id) stops
       from mgt.trip t join mgt.marsh_variants mv on mv.id = t."MarshVariant_id"
      where mv.route_id = any($1::int[])
      order by (coalesce(mv.startdate, $2::date) <= $2::date and coalesce(mv.enddate, $2::date) >= $2::date) desc, mv.startdate desc nulls last, t.id`,
    [routeIds, today],
  );
  const points = await db.query<{ id: number; x: number; y: number }>(
    `select t.id, st_x(d.geom) x, st_y(d.geom) y from mgt.trip t join mgt.marsh_variants mv on mv.id = t."MarshVariant_id",
            lateral st_dumppoints(t.trajectory) d
      where mv.route_id = any($1::int[]) order by t.id, d.path`,
    [routeIds],
  );
  const pointsOf = new Map<number, [number, number][]>();
  for (const p of points) (pointsOf.get(p.id) ?? pointsOf.set(p.id, []).get(p.id)!).push([p.x, p.y]);
  const result = new Map<number, HandbookLine[]>();
  for (const t of trips) {
    const line = { raceType: t.race_type, stops: t.stops ?? [], points: pointsOf.get(t.id) ?? [] };
    if (line.points.length < 2) continue;
    (result.get(t.route_id) ?? result.set(t.route_id, []).get(t.route_id)!).push(line);
  }
  return result;
}

/** The trajectory of the handbook trip with the same stops, else the same direction and termini (as the simulator matches). */
function matchTrajectory(lines: HandbookLine[], raceType: string, stops: number[]): [number, number][] | null {
  const same = lines.filter((l) => l.raceType === raceType);
  const exact = same.find((l) => l.stops.length === stops.length && l.stops.every((s, i) => s === stops[i]));
  if (exact) return exact.points;
  const termini = same.find((l) => l.stops[0] === stops[0] && l.stops[l.stops.length - 1] === stops[stops.length - 1]);
  return termini?.points ?? null;
}
