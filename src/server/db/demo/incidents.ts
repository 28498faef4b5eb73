import type { Queryable } from '../types';
import type { DemoScale } from './generate';

/** Days of ADAS incident history the demo starts with, so the incident reports show data on a fresh start. */
export const DEMO_INCIDENT_DAYS = 28;
const PER_DAY: Record<DemoScale, number> = { city: 120, test: 12 };

/**
 * A deterministic history of incidents (the same on every install for the same day): each one a vehicle,
 * a type of the handbook, a route and a stop's place picked by multiplicative strides over the series,
 * spread over the last DEMO_INCIDENT_DAYS days, more of them by day than by night.
 */
export async function insertDemoIncidents(tx: Queryable, scale: DemoScale, today: Date): Promise<void> {
  await tx.query(
    `with v as (select array_agg(id order by id) as ids, array_agg(depot_number order by id) as numbers from mgt.vehicles),
          t as (select array_agg(incident_type order by id) as types from adas.incident_type),
          r as (select array_agg(route_id order by route_id) as routes from mgt.routes),
          s as (select array_agg(stop_lat order by stop_id) as lats, array_agg(stop_lon order by stop_id) as lons
                from mgt.stops where stop_lat is not null and stop_lon is not null),
          g as (select n, (n * 7919) % ($2::int * 1440) as minute from generate_series(1, $2::int * $3::int) n)
     insert into adas.incident_event (tm, vehicle_id, depot_number, incident_type, speed, lat, lon, grade, route_id)
     select date_trunc('day', $1::timestamptz) - make_interval(days => $2::int)
              + make_interval(mins => g.minute - (g.minute % 1440) + 360 + ((g.minute % 1440) * 1020 / 1440)),
            v.ids[1 + (g.n * 31) % cardinality(v.ids)], v.numbers[1 + (g.n * 31) % cardinality(v.ids)],
            t.types[1 + (g.n * 7 + g.n / 11) % cardinality(t.types)],
            (15 + (g.n * 37) % 55)::real,
            s.lats[1 + (g.n * 53) % cardinality(s.lats)], s.lons[1 + (g.n * 53) % cardinality(s.lats)],
            1 + (g.n * 7) % 3,
            r.routes[1 + (g.n * 17) % cardinality(r.routes)]
     from g, v, t, r, s
     where cardinality(v.ids) > 0 and cardinality(t.types) > 0 and cardinality(r.routes) > 0 and cardinality(s.lats) > 0`,
    [today, DEMO_INCIDENT_DAYS, PER_DAY[scale]],
  );
}
