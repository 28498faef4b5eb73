import { distanceKm, lineStringWkt, multiLineStringWkt, type LatLon } from './geography';
import type { Depot } from './organisation';
import type { Random } from './random';
import { MARSH_TYPE, TRANSPORT_TYPES, TRANSPORT_TYPE, transportCode, type TransportKind } from './reference';
import type { MarshVariantRow, RouteRow, StopRow, TripRow, TripStopRow } from './rows';
import { STREETS } from './places';
import { kmFromCentre, type StopSite } from './stops';
import { SiteGrid, walkRoute, type WalkParams } from './walk';
import { shortStreet } from './words';

export interface NetworkParams extends WalkParams {
  routes: Record<TransportKind, number>;
  /** Stops per trip, both included. */
  tripStops: readonly [number, number];
  /** How many routes get MULTILINESTRING trajectories (the map skips those). */
  multiLineRoutes: number;
  /** Share of routes with a second, shortened variant. */
  shortVariantShare: number;
}

/** One direction of a route's main variant: what the schedule runs along. */
export interface Direction {
  stopIds: number[];
  points: LatLon[];
}

export interface Route {
  row: RouteRow;
  kind: TransportKind;
  mainVariantId: number;
  forward: Direction;
  backward: Direction;
}

export interface Network {
  routes: Route[];
  marshVariants: MarshVariantRow[];
  trips: TripRow[];
  tripStops: TripStopRow[];
}

const ISO = (year: number, month: number, day: number) => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/** Numbers as on the street: buses and trams share no number, trolleybuses carry a 'т'. */
function routeNumbers(random: Random, params: NetworkParams): Record<TransportKind, string[]> {
  const tram = random
    .shuffle(Array.from({ length: 65 }, (_, i) => i + 1))
    .slice(0, params.routes.tram)
    .sort((a, b) => a - b);
  const taken = new Set(tram);
  const free = Array.from({ length: 299 }, (_, i) => i + 1).filter((n) => !taken.has(n));
  const bus = random
    .shuffle(free)
    .slice(0, params.routes.bus)
    .sort((a, b) => a - b)
    .map((n) => `${n}${random.chance(0.06) ? 'А' : ''}`);
  const trolleybus = random
    .shuffle(Array.from({ length: 50 }, (_, i) => i + 1))
    .slice(0, params.routes.trolleybus)
    .sort((a, b) => a - b);
  return { bus, trolleybus: trolleybus.map((n) => `${n}т`), tram: tram.map(String) };
}

/** The longest of several walks: buses mostly run from the outskirts towards the centre, electric transport stays inside. */
function routePath(
  random: Random,
  grid: SiteGrid,
  kind: TransportKind,
  length: number,
  params: NetworkParams,
  usedStarts: Set<number>,
): number[] {
  const sites = grid.sites;
  const reach = Math.max(...sites.map(kmFromCentre));
  const outer = sites.map((_, i) => i).filter((i) => kmFromCentre(sites[i]) > 0.45 * reach);
  const inner = sites.map((_, i) => i).filter((i) => kmFromCentre(sites[i]) < 0.6 * reach);
  let best: number[] = [];
  for (let attempt = 0; attempt < 30 && best.length < length; attempt++) {
    const fromOutside = kind === 'bus' && outer.length > 0 && random.chance(0.6);
    const start = fromOutside
      ? random.pick(outer)
      : kind === 'bus' || inner.length === 0
        ? random.int(0, sites.length - 1)
        : random.pick(inner);
    // Two routes from one terminus are common, but not from every one: prefer a fresh start while attempts last.
    if (usedStarts.has(start) && attempt < 20) continue;
    const inward = Math.atan2(-sites[start].y, -sites[start].x);
    const heading = fromOutside ? inward + random.float(-0.8, 0.8) : random.float(-Math.PI, Math.PI);
    const path = walkRoute(random, grid, start, heading, length, params);
    if (path.length > best.length) best = path;
  }
  usedStarts.add(best[0]);
  return best;
}

/** Full street names by the way stop names write them ('Ул. Есенина' → 'Улица Есенина'). */
const STREET_NAMES = new Map(
  STREETS.flatMap(
    ([street]) =>
      [
        [street, street],
        [shortStreet(street), street],
      ] as const,
  ),
);
const streetOf = (stopName: string) => STREET_NAMES.get(stopName.split(',')[0]) ?? null;

/** '1 остановка', '3 остановки', '21 остановка', '25 остановок'. */
export function stopsWord(n: number): string {
  if (n % 10 === 1 && n % 100 !== 11) return `${n} остановка`;
  if (n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14)) return `${n} остановки`;
  return `${n} остановок`;
}

function describe(kind: TransportKind, sites: StopSite[], km: number): string {
  const streets = [
    ...new Set(
      sites
        .slice(1, -1)
        .map((site) => streetOf(site.name))
        .filter((s): s is string => s !== null),
    ),
  ].slice(0, 3);
  const title = TRANSPORT_TYPES[TRANSPORT_TYPE[kind] - 1].title;
  return `${title}: ${stopsWord(sites.length)}, ${km.toFixed(1)} км${streets.length ? `; через ${streets.join(', ')}` : ''}`;
}

/** Routes as walks through the stop sites, one or two variants each, a forward (A) and a backward (B) trip per variant. */
export function generateNetwork(random: Random, sites: StopSite[], stops: StopRow[], depots: Depot[], params: NetworkParams): Network {
  const grid = new SiteGrid(sites, params.maxStepKm);
  const numbers = routeNumbers(random, params);
  const network: Network = { routes: [], marshVariants: [], trips: [], tripStops: [] };
  const depotLoad = new Map<number, number>();
  const usedStarts = new Set<number>();
  const point = (stopId: number): LatLon => ({ lat: stops[stopId - 1].stop_lat, lon: stops[stopId - 1].stop_lon });

  const addTrip = (variantId: number, raceType: 'A' | 'B', stopIds: number[], multiLine: boolean) => {
    const id = network.trips.length + 1;
    const points = stopIds.map(point);
    const middle = Math.floor(points.length / 2);
    const trajectory =
      multiLine && points.length >= 4 ? multiLineStringWkt([points.slice(0, middle + 1), points.slice(middle)]) : lineStringWkt(points);
    network.trips.push({ id, MarshVariant_id: variantId, race_type: raceType, trajectory });
    stopIds.forEach((stop_id, i) =>
      network.tripStops.push({
        id: network.tripStops.length + 1,
        trip_id: id,
        stop_id,
        stop_sequence: i + 1,
        kkp: i === 0 ? 'B' : i === stopIds.length - 1 ? 'E' : null,
      }),
    );
  };

  for (const kind of ['bus', 'trolleybus', 'tram'] as const) {
    for (const shortName of numbers[kind]) {
      const route_id = network.routes.length + 1;
      const path = routePath(random, grid, kind, random.int(...params.tripStops), params, usedStarts).map((i) => sites[i]);
      const forwardIds = path.map((site) => site.forward);
      const backwardIds = [...path].reverse().map((site) => site.backward);
      const km = path.slice(1).reduce((sum, site, i) => sum + distanceKm(path[i], site), 0);
      const depot = depots
        .filter((d) => d.kind === kind)
        .map((d) => ({
          d,
          score: distanceKm(path[0], { lat: d.row.dp_lat, lon: d.row.dp_lon }) + 3 * (depotLoad.get(d.row.depot_id) ?? 0),
        }))
        .sort((a, b) => a.score - b.score || a.d.row.depot_id - b.d.row.depot_id)[0].d.row;
      depotLoad.set(depot.depot_id, (depotLoad.get(depot.depot_id) ?? 0) + 1);
      const roll = random.next();
      const marshType =
        kind !== 'bus'
          ? MARSH_TYPE.city
          : kmFromCentre(path[0]) > 10 && roll < 0.5
            ? MARSH_TYPE.suburban
            : roll < 0.07
              ? MARSH_TYPE.night
              : roll < 0.12
                ? MARSH_TYPE.express
                : roll < 0.16
                  ? MARSH_TYPE.social
                  : MARSH_TYPE.city;
      const startdate = ISO(random.int(2008, 2024), random.int(1, 12), random.int(1, 28));
      const row: RouteRow = {
        route_id,
        route_long_name: `${path[0].name} — ${path[path.length - 1].name}`,
        route_type: transportCode(kind),
        MarshType_id: marshType,
        route_short_name: shortName,
        route_desc: describe(kind, path, km),
        Depot_id: depot.depot_id,
        startdate,
        enddate: random.chance(0.05) ? ISO(random.int(2027, 2030), 12, 31) : null,
        do_not_update: true,
      };
      const multiLine = route_id >= 2 && route_id < 2 + params.multiLineRoutes;
      const mainVariantId = network.marshVariants.length + 1;
      network.marshVariants.push({ id: mainVariantId, route_id, startdate, enddate: null, description: 'Основной' });
      addTrip(mainVariantId, 'A', forwardIds, multiLine);
      addTrip(mainVariantId, 'B', backwardIds, multiLine);
      if (path.length >= params.tripStops[0] + 3 && random.chance(params.shortVariantShare)) {
        const cut = Math.max(params.tripStops[0], Math.round(path.length * random.float(0.5, 0.75)));
        const variantId = network.marshVariants.length + 1;
        network.marshVariants.push({
          id: variantId,
          route_id,
          startdate: ISO(2025, random.int(1, 12), random.int(1, 28)),
          enddate: random.chance(0.5) ? ISO(2026, 12, 31) : null,
          description: `Укороченный: до «${path[cut - 1].name}»`,
        });
        addTrip(variantId, 'A', forwardIds.slice(0, cut), multiLine);
        addTrip(variantId, 'B', backwardIds.slice(backwardIds.length - cut), multiLine);
      }
      network.routes.push({
        row,
        kind,
        mainVariantId,
        forward: { stopIds: forwardIds, points: forwardIds.map(point) },
        backward: { stopIds: backwardIds, points: backwardIds.map(point) },
      });
    }
  }
  return network;
}
