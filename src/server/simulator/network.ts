import type { Queryable } from '../db/types';
import { Polyline, parseLineString, type LatLon } from './polyline';

/** A trip of a route as the simulator drives it. */
export interface TripShape {
  id: number;
  raceType: string;
  stopIds: number[];
  /** null for a MULTILINESTRING trajectory: such trips are not driven along their geometry. */
  line: Polyline | null;
}

/** The static part of the city the simulator needs, loaded once at start. */
export interface SimNetwork {
  stops: Map<number, LatLon>;
  tripsByRoute: Map<number, TripShape[]>;
  depotOf: Map<number, LatLon | null>;
  /** Vehicle id → depot number: simulated incidents name their vehicle as a unit does. */
  depotNumberOf: Map<number, number>;
  incidentTypes: number[];
}

export async function loadNetwork(db: Queryable): Promise<SimNetwork> {
  const [stops, trips, tripStops, vehicles, incidentTypes] = await Promise.all([
    db.query<{ stop_id: number; stop_lat: number | null; stop_lon: number | null }>('select stop_id, stop_lat, stop_lon from mgt.stops'),
    db.query<{ id: number; route_id: number; race_type: string; wkt: string | null }>(
      `select t.id, mv.route_id, t.race_type,
              case when geometrytype(t.trajectory) = 'LINESTRING' then st_astext(t.trajectory, 7) end as wkt
         from mgt.trip t join mgt.marsh_variants mv on mv.id = t."MarshVariant_id" order by t.id`,
    ),
    db.query<{ trip_id: number; stops: number[] }>(
      'select trip_id, array_agg(stop_id order by stop_sequence) as stops from mgt.trip_stops group by trip_id',
    ),
    db.query<{ id: number; depot_number: number; dp_lat: number | null; dp_lon: number | null }>(
      'select v.id, v.depot_number, d.dp_lat, d.dp_lon from mgt.vehicles v left join mgt.depot d on d.depot_id = v.depot_id',
    ),
    db.query<{ incident_type: number }>('select distinct incident_type from adas.incident_type order by incident_type'),
  ]);
  const network: SimNetwork = {
    stops: new Map(),
    tripsByRoute: new Map(),
    depotOf: new Map(),
    depotNumberOf: new Map(),
    incidentTypes: incidentTypes.map((r) => r.incident_type),
  };
  for (const s of stops) if (s.stop_lat !== null && s.stop_lon !== null) network.stops.set(s.stop_id, { lat: s.stop_lat, lon: s.stop_lon });
  const stopsOfTrip = new Map(tripStops.map((row) => [row.trip_id, row.stops]));
  for (const trip of trips) {
    const points = trip.wkt ? parseLineString(trip.wkt) : null;
    const shape: TripShape = {
      id: trip.id,
      raceType: trip.race_type,
      stopIds: stopsOfTrip.get(trip.id) ?? [],
      line: points ? new Polyline(points) : null,
    };
    const list = network.tripsByRoute.get(trip.route_id);
    if (list) list.push(shape);
    else network.tripsByRoute.set(trip.route_id, [shape]);
  }
  for (const v of vehicles) {
    network.depotOf.set(v.id, v.dp_lat !== null && v.dp_lon !== null ? { lat: v.dp_lat, lon: v.dp_lon } : null);
    network.depotNumberOf.set(v.id, v.depot_number);
  }
  return network;
}
