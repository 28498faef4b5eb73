import { ADAS_REPORTS } from '../../shared/reports/adas';
import { bindReports } from '../reports/reportSource';

/**
 * ADAS incident reports' SQL (declarations: src/shared/reports/adas.ts). /adas/incidents-dynamic counts
 * incidents per time bucket and type. Buckets are the user's days (hours, weeks from Monday, months): the
 * time is shifted by the client's offset before truncating, and the bucket start leaves as wall-clock text.
 */
export const ADAS_SOURCES = bindReports(ADAS_REPORTS, {
  '/adas/incidents-dynamic': {
    shape: 'summary',
    select(filters, { offsetMinutes }) {
      const params: unknown[] = [filters.step, offsetMinutes];
      const conditions: string[] = [];
      const add = (condition: (p: string) => string, value: unknown) => conditions.push(condition(`$${params.push(value)}`));
      if (filters.from) add((p) => `e.tm >= ${p}::timestamptz`, filters.from);
      if (filters.to) add((p) => `e.tm <= ${p}::timestamptz`, filters.to);
      if (filters.type) add((p) => `e.incident_type = any(${p}::int[])`, filters.type);
      if (filters.vehicle) add((p) => `e.vehicle_id = any(${p}::int[])`, filters.vehicle);
      if (filters.route) add((p) => `e.route_id = any(${p}::int[])`, filters.route);
      if (filters.depot) add((p) => `e.vehicle_id in (select v.id from mgt.vehicles v where v.depot_id = any(${p}::int[]))`, filters.depot);
      return {
        // counted per bucket first, so the bucket's text and the type's name are made once per group, not per incident
        text: `select to_char(c.bucket, 'YYYY-MM-DD"T"HH24:MI') as period, c.incident_type,
            coalesce((select t.incident_name from adas.incident_type t where t.incident_type = c.incident_type order by t.id limit 1), c.incident_type::text) as incident_name,
            c.count
          from (select date_trunc($1, e.tm at time zone 'UTC' + make_interval(mins => $2::int)) as bucket, e.incident_type, count(*)::int as count
                from adas.incident_event e
                ${conditions.length ? `where ${conditions.join(' and ')}` : ''}
                group by 1, 2) c`,
        params,
      };
    },
  },
});
